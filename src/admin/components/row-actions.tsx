import { Button } from '#components/ui/button.tsx';
import { ConfirmDialog } from '#components/ui/confirm-dialog.tsx';
import type { Versioned } from '#shared/schemas/stored.ts';

/** Edit and Delete buttons for one row, named after the row for screen readers. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <Button size="sm" variant="secondary" onClick={onEdit} aria-label={`Edit ${name}`}>
        Edit
      </Button>
      <Button size="sm" variant="destructive" onClick={onDelete} aria-label={`Delete ${name}`}>
        Delete
      </Button>
    </>
  );
}

/** The delete confirmation of a list editor (SPEC 2.15): nothing is deleted until confirmed. */
export function DeleteConfirm<T extends { id: number; title: string }>(props: {
  item: T | null;
  what: string;
  onClose: () => void;
  remove: { isPending: boolean; mutate: (id: number, opts: { onSuccess: () => void }) => void };
}) {
  const { item, what, onClose, remove } = props;
  return (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Delete ${what}?`}
      description={`“${item?.title ?? ''}” will be deleted and removed from the website. This cannot be undone.`}
      busy={remove.isPending}
      onConfirm={() => item && remove.mutate(item.id, { onSuccess: onClose })}
    />
  );
}

/** The submit wiring every create-or-edit form shares: create without a record, else a versioned patch. */
export function saveFormProps(
  current: Versioned | undefined,
  save: { mutateAsync: (vars: { id?: number; version?: number; values: Record<string, unknown> }) => Promise<unknown> },
  close: () => void,
  createLabel = 'Create',
) {
  return {
    submitLabel: current ? 'Save Changes' : createLabel,
    onCancel: close,
    onSubmit: async (values: Record<string, unknown>) => {
      await save.mutateAsync({ id: current?.id, version: current?.version, values });
      close();
    },
  };
}
