import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Select } from '#components/ui/select.tsx';
import type { ReplySetup } from '#shared/email/render.ts';
import { savedRepliesQuery } from '../../api/saved-replies';

/**
 * The Respond dialog's inserts: a saved reply (chosen, then inserted with its button, so arrowing
 * through the list never inserts anything) and the capability statement's link, when an active
 * capability document exists. Both go in at the text's cursor.
 */
export function ReplyInserts({ setup, onInsert }: { setup: ReplySetup | undefined; onInsert: (text: string) => void }) {
  const id = useId();
  const saved = useQuery(savedRepliesQuery);
  const [chosen, setChosen] = useState('');
  const replies = saved.data ?? [];
  const capability = setup?.capabilityStatement;
  const insertSaved = () => {
    const reply = replies.find((r) => String(r.id) === chosen);
    if (reply) onInsert(reply.body);
  };

  return (
    <div className="flex flex-wrap items-end gap-2">
      {replies.length > 0 && (
        <>
          <div>
            <label htmlFor={`${id}-saved`} className="mb-1 block text-xs font-medium text-ink">
              Saved reply
            </label>
            <Select
              id={`${id}-saved`}
              value={chosen}
              onChange={(e) => setChosen(e.target.value)}
              options={[{ value: '', label: 'Choose a saved reply…' }, ...replies.map((r) => ({ value: String(r.id), label: r.title }))]}
            />
          </div>
          <Button variant="secondary" size="sm" disabled={chosen === ''} onClick={insertSaved}>
            Insert saved reply
          </Button>
        </>
      )}
      {capability && (
        <Button variant="secondary" size="sm" onClick={() => onInsert(capability.url)} title={capability.title}>
          Insert capability statement link
        </Button>
      )}
    </div>
  );
}
