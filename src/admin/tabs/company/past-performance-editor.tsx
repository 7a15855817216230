import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { formatDollars, formatPeriod } from '#shared/past-performance.ts';
import { pastPerformanceQuery, useDeletePastPerformance, useSavePastPerformance, type PastPerformance } from '../../api/past-performance';
import { EditorCard, LoadError, LoadingRows } from '../../components/load-state';
import { LazySchemaForm } from '../../components/lazy-form';
import { DeleteConfirm, RowActions, saveFormProps } from '../../components/row-actions';
import type { FieldSpec } from '../../components/schema-form';
import { StackTable } from '../../components/stack-table';
import { FormDialog } from '../../components/unsaved-changes';

const entrySchema = () =>
  import('#shared/schemas/past-performance.ts').then((m) => m.pastPerformanceSchema as unknown as z.ZodType<FieldValues, FieldValues>);

const FIELDS: FieldSpec[] = [
  { name: 'customer', label: 'Customer', help: 'The agency or company you delivered for, e.g. Department of Veterans Affairs.' },
  { name: 'title', label: 'Title', help: 'What you delivered, in a few words.' },
  { name: 'summary', label: 'Summary', kind: 'textarea', rows: 4, help: 'What you did and how it went: at most 600 characters.' },
  { name: 'periodStart', label: 'Start month', help: 'YYYY-MM, e.g. 2023-03.' },
  { name: 'periodEnd', label: 'End month (optional)', help: 'YYYY-MM; leave empty while the work is ongoing (shown as “present”).' },
  { name: 'contractType', label: 'Contract or order type (optional)', help: 'E.g. Firm-fixed-price purchase order.' },
  { name: 'value', label: 'Value in US dollars (optional)', help: 'Whole dollars, e.g. 1,250,000.' },
  { name: 'showValue', label: 'Show the value on the website', kind: 'switch' },
  { name: 'naicsCode', label: 'NAICS code (optional)', help: '6 digits.' },
  { name: 'displayOrder', label: 'Display order', kind: 'number', help: 'Lower numbers come first; the home page shows the first three.' },
  { name: 'isActive', label: 'Active (shown on the website)', kind: 'switch' },
];

function toForm(current: PastPerformance | undefined, count: number): FieldValues {
  return {
    customer: current?.customer ?? '',
    title: current?.title ?? '',
    summary: current?.summary ?? '',
    periodStart: current?.periodStart ?? '',
    periodEnd: current?.periodEnd ?? '',
    contractType: current?.contractType ?? '',
    value: current?.value == null ? '' : current.value.toLocaleString('en-US'),
    showValue: current?.showValue ?? false,
    naicsCode: current?.naicsCode ?? '',
    displayOrder: current?.displayOrder ?? count,
    isActive: current?.isActive ?? true,
  };
}

/** Past performance (Company tab): a table in display order, an add/edit dialog, delete with confirmation. */
export function PastPerformanceEditor() {
  const query = useQuery(pastPerformanceQuery);
  const save = useSavePastPerformance();
  const remove = useDeletePastPerformance();
  const [editing, setEditing] = useState<PastPerformance | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PastPerformance | null>(null);
  const current = editing === 'new' ? undefined : (editing ?? undefined);

  let body;
  if (query.isPending) body = <LoadingRows label="Loading past performance" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0)
    body = <p className="text-sm text-muted">No entries yet; the website shows no past performance until you add one.</p>;
  else
    body = (
      <StackTable columns={['Title', 'Customer', 'Period', 'Order', 'Status', 'Actions']}>
        {query.data.map((e) => (
          <tr key={e.id} className="border-line align-top md:border-b">
            <td className="py-2 pr-3 font-medium text-ink">{e.title}</td>
            <td data-label="Customer" className="py-2 pr-3">
              {e.customer}
            </td>
            <td data-label="Period" className="py-2 pr-3">
              {formatPeriod(e.periodStart, e.periodEnd)}
              {e.value !== null && (
                <span className="block text-xs text-muted">
                  {formatDollars(e.value)} {e.showValue ? '(shown)' : '(not shown)'}
                </span>
              )}
            </td>
            <td data-label="Order" className="py-2 pr-3">
              {e.displayOrder}
            </td>
            <td data-label="Status" className="py-2 pr-3">
              {e.isActive ? <Badge tone="success">Active</Badge> : <Badge tone="muted">Inactive</Badge>}
            </td>
            <td className="py-2">
              <div className="flex gap-2">
                <RowActions name={e.title} onEdit={() => setEditing(e)} onDelete={() => setDeleting(e)} />
              </div>
            </td>
          </tr>
        ))}
      </StackTable>
    );

  return (
    <EditorCard
      title="Past performance"
      description="Contracts and orders you delivered: shown on the federal capabilities and about pages, and the first three on the home page."
      actions={<Button onClick={() => setEditing('new')}>Add Past Performance</Button>}
    >
      {body}
      <FormDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={current ? 'Edit Past Performance' : 'Add Past Performance'}
      >
        {editing !== null && (
          <LazySchemaForm
            schema={entrySchema}
            fields={FIELDS}
            defaultValues={toForm(current, query.data?.length ?? 0)}
            {...saveFormProps(current, save, () => setEditing(null))}
          />
        )}
      </FormDialog>
      <DeleteConfirm item={deleting} what="past performance entry" onClose={() => setDeleting(null)} remove={remove} />
    </EditorCard>
  );
}
