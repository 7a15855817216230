import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

/** Every kept draft's key starts with this, then the kind of record and its id (or `new`). */
const PREFIX = 'backoffice-draft:';

export interface Draft {
  savedAt: number;
  values: FieldValues;
}

export const draftKey = (kind: string, id: number | undefined) => `${PREFIX}${kind}:${id ?? 'new'}`;

/** The draft kept under `key`, if any (private browsing or a full store: none). */
export function readDraft(key: string): Draft | null {
  try {
    const raw = window.localStorage.getItem(key);
    const parsed = raw ? (JSON.parse(raw) as Partial<Draft>) : null;
    return parsed && typeof parsed.savedAt === 'number' && parsed.values && typeof parsed.values === 'object' ? (parsed as Draft) : null;
  } catch {
    return null;
  }
}

function writeDraft(key: string, values: FieldValues): void {
  try {
    window.localStorage.setItem(key, JSON.stringify({ savedAt: Date.now(), values }));
  } catch {
    /* storage full or disabled: the guard still asks before anything is dropped */
  }
}

function removeDraft(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    /* nothing kept */
  }
}

/**
 * Keeps a long text's form as a draft in this browser while it has unsaved changes, so a reload,
 * a crash or an ended session loses nothing: the next time the editor opens it offers the draft.
 * The draft is removed when the form is saved, discarded or changed back to what is stored.
 */
export function useLocalDraft(key: string | undefined, form: UseFormReturn<FieldValues>) {
  const [offer, setOffer] = useState<Draft | null>(() => (key ? readDraft(key) : null));
  const { isDirty } = form.formState;
  const wasDirty = useRef(false);

  useEffect(() => {
    if (!key) return;
    const sub = form.watch((values) => writeDraft(key, values));
    return () => sub.unsubscribe();
  }, [key, form]);

  useEffect(() => {
    // Typed back to what is stored: nothing left to keep.
    if (key && wasDirty.current && !isDirty) removeDraft(key);
    wasDirty.current = isDirty;
  }, [key, isDirty]);

  const clear = useCallback(() => {
    if (key) removeDraft(key);
    setOffer(null);
  }, [key]);

  const restore = useCallback(() => {
    if (!offer) return;
    // Keeps the stored values as the defaults, so the restored text counts as unsaved.
    form.reset({ ...form.getValues(), ...offer.values }, { keepDefaultValues: true });
    setOffer(null);
  }, [form, offer]);

  return { offer, restore, clear };
}
