import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import { Button } from '#components/ui/button.tsx';
import { Dialog } from '#components/ui/dialog.tsx';

interface Entry {
  dirty: boolean;
  /** Called when the owner chose to discard: drop any kept draft. */
  onDiscard?: () => void;
}

/**
 * The editors with unsaved changes below one point of the tree. A dialog opens a scope of its
 * own, so closing it asks only about its own form; every entry is also known to the scopes
 * above it, so switching tabs or signing out asks about all of them.
 */
class Scope {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly parent?: Scope) {}

  set(id: string, entry: Entry): void {
    this.entries.set(id, entry);
    this.parent?.set(id, entry);
  }

  delete(id: string): void {
    this.entries.delete(id);
    this.parent?.delete(id);
  }

  dirty(): Entry[] {
    return [...this.entries.values()].filter((e) => e.dirty);
  }
}

interface Guard {
  scope: Scope;
  ask: () => Promise<boolean>;
  /** Leaving the page was confirmed: the browser must not ask a second time. */
  leave: () => void;
}

const GuardContext = createContext<Guard | null>(null);

function useGuard(): Guard {
  const guard = useContext(GuardContext);
  if (!guard) throw new Error('useUnsavedChanges must be used inside <UnsavedChangesProvider>');
  return guard;
}

/** Asks before anything that would drop typed text; discarding clears the kept drafts too. */
async function confirmLeave(guard: Guard, scope: Scope): Promise<boolean> {
  const dirty = scope.dirty();
  if (dirty.length === 0) return true;
  if (!(await guard.ask())) return false;
  for (const entry of dirty) entry.onDiscard?.();
  return true;
}

/**
 * Where focus belongs once the prompt closes: what had it when the question came up (a click on
 * a tab asks before the tab takes focus, so that is the field being edited). A tab that took focus
 * by keyboard is not the open one: focusing it again would switch to it and ask again, so the
 * open tab gets focus instead.
 */
function focusAfterPrompt(): HTMLElement | null {
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  if (active?.getAttribute('role') !== 'tab' || active.getAttribute('aria-selected') === 'true') return active;
  return active.closest('[role="tablist"]')?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ?? null;
}

/**
 * The back office's one guard against lost work: tab switches, closing a dialog, signing out and
 * leaving the page ask "Discard unsaved changes?" while any editor has changes not saved yet.
 */
export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<((discard: boolean) => void) | null>(null);
  const leaving = useRef(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const guard = useMemo<Guard>(
    () => ({
      scope: new Scope(),
      ask: () => {
        returnTo.current = focusAfterPrompt();
        return new Promise<boolean>((resolve) => setPending(() => resolve));
      },
      leave: () => {
        leaving.current = true;
      },
    }),
    [],
  );

  useEffect(() => {
    // Reload, closing the tab or following a link: the browser's own prompt (its text is fixed).
    // preventDefault() asks for it in every current browser; the legacy returnValue is not needed.
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current || guard.scope.dirty().length === 0) return;
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [guard]);

  const answer = (discard: boolean) => {
    pending?.(discard);
    setPending(null);
  };

  return (
    <GuardContext.Provider value={guard}>
      {children}
      <Dialog
        open={pending !== null}
        onOpenChange={(open) => !open && answer(false)}
        title="Discard unsaved changes?"
        description="Your changes have not been saved. Keep editing to save them, or discard them."
        role="alertdialog"
        returnFocus={() => returnTo.current}
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => answer(false)}>
            Keep editing
          </Button>
          <Button variant="destructive" onClick={() => answer(true)}>
            Discard changes
          </Button>
        </div>
      </Dialog>
    </GuardContext.Provider>
  );
}

/** Reports an editor's unsaved state to the guard while it is mounted. */
export function useUnsavedChanges(dirty: boolean, onDiscard?: () => void): void {
  const { scope } = useGuard();
  const id = useId();
  useEffect(() => {
    scope.set(id, { dirty, onDiscard });
    return () => scope.delete(id);
  }, [scope, id, dirty, onDiscard]);
}

/**
 * Resolves true when nothing unsaved would be lost, or the owner chose to discard it.
 * `leavePage`: the page is about to be left (sign-out), so the browser must not ask again.
 */
export function useConfirmLeave(): (opts?: { leavePage?: boolean }) => Promise<boolean> {
  const guard = useGuard();
  return useCallback(
    async (opts) => {
      const ok = await confirmLeave(guard, guard.scope);
      if (ok && opts?.leavePage) guard.leave();
      return ok;
    },
    [guard],
  );
}

interface FormDialogProps extends Omit<ComponentProps<typeof Dialog>, 'onOpenChange'> {
  onClose: () => void;
}

/**
 * A dialog holding an editor: Escape, the ✕ and a click outside ask first when its editors have
 * unsaved changes (only its own: the dialog is a scope of the guard).
 */
export function FormDialog({ onClose, children, ...props }: FormDialogProps) {
  const guard = useGuard();
  const child = useMemo<Guard>(() => ({ ...guard, scope: new Scope(guard.scope) }), [guard]);
  const requestClose = () => void confirmLeave(child, child.scope).then((ok) => ok && onClose());
  return (
    <Dialog {...props} onOpenChange={(open) => !open && requestClose()}>
      <GuardContext.Provider value={child}>{children}</GuardContext.Provider>
    </Dialog>
  );
}

/** Asks only when this editor itself has unsaved changes (its own Cancel button). */
export function useConfirmDiscard(dirty: boolean): () => Promise<boolean> {
  const { ask } = useGuard();
  return useCallback(async () => !dirty || ask(), [dirty, ask]);
}

/**
 * A tab set whose switch asks first while an editor in the open tab has unsaved changes. Use it
 * with `activationMode="manual"`: arrow keys move focus and Enter or Space opens, so moving
 * across the tabs never asks, and focus coming back after the question never switches.
 */
export function useGuardedTab(initial: string | (() => string)) {
  const [value, setValue] = useState(initial);
  const confirmLeave = useConfirmLeave();
  // A click on a tab asks on mousedown and again when the tab takes focus: one question at a time.
  const asking = useRef(false);
  const onValueChange = useCallback(
    (next: string, then?: () => void) => {
      if (asking.current) return;
      asking.current = true;
      void confirmLeave()
        .then((ok) => {
          if (!ok) return;
          setValue(next);
          then?.();
        })
        .finally(() => {
          asking.current = false;
        });
    },
    [confirmLeave],
  );
  return { value, onValueChange };
}
