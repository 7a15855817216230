import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Switch } from '#components/ui/switch.tsx';
import { INSIGHT_CATEGORIES } from '#shared/constants.ts';
import { insightsQuery, useDeleteInsight, useToggleInsight, type Insight } from '../../api/insights';
import { useRowRequests } from '../../components/contact-field-request';
import { EditorCard, LoadError, LoadingRows, formatDate } from '../../components/load-state';
import { DeleteConfirm, RowActions } from '../../components/row-actions';
import { lazyNamed, useOpenedOnce } from '../../components/lazy-form';
import { categoryLabel } from './categories';

// The insight form (the form code) loads when it is first opened.
const InsightFormDialog = lazyNamed(() => import('./insight-form-dialog'), 'InsightFormDialog');
import { StackTable } from '../../components/stack-table';

/** SPEC 2.15 Blog tab (Insights Management). */
export function BlogTab() {
  const query = useQuery(insightsQuery);
  const toggle = useToggleInsight();
  const remove = useDeleteInsight();
  const [editing, setEditing] = useState<Insight | 'new' | null>(null);
  const opened = useOpenedOnce(editing !== null);
  const [deleting, setDeleting] = useState<Insight | null>(null);
  useRowRequests('insight', undefined, query.data, setEditing);

  let body;
  if (query.isPending) body = <LoadingRows rows={4} label="Loading insights" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0)
    body = (
      <div className="text-sm text-muted">
        <p>No insights yet. Write about any of these topics:</p>
        <ul className="mt-2 list-disc pl-6">
          {INSIGHT_CATEGORIES.map((c) => (
            <li key={c}>{categoryLabel(c)}</li>
          ))}
        </ul>
      </div>
    );
  else
    body = (
      <StackTable columns={['Title', 'Slug', 'Category', 'Author', 'Published', 'Date', 'Actions']}>
        {query.data.map((i) => (
          <tr key={i.id} className="border-line align-top md:border-b">
            <td className="py-2 pr-3 font-medium text-ink">{i.title}</td>
            <td data-label="Slug" className="py-2 pr-3">
              {i.slug}
            </td>
            <td data-label="Category" className="py-2 pr-3">
              {categoryLabel(i.category)}
            </td>
            <td data-label="Author" className="py-2 pr-3">
              {i.authorName}
            </td>
            <td data-label="Published" className="py-1 pr-3">
              <Switch
                checked={i.isPublished}
                disabled={toggle.isPending}
                onCheckedChange={() => toggle.mutate(i)}
                aria-label={`Published: ${i.title}`}
              />
            </td>
            <td data-label="Date" className="py-2 pr-3 whitespace-nowrap">
              {i.isPublished && i.publicationDate ? formatDate(i.publicationDate) : 'Not published'}
            </td>
            <td className="py-2">
              <div className="flex flex-wrap gap-2 lg:flex-nowrap">
                <a
                  href={`/preview/insights/${i.slug}`}
                  target="_blank"
                  rel="noopener"
                  className="inline-flex min-h-11 items-center rounded-md px-3 text-sm font-semibold text-navy-800 underline hover:bg-surface md:min-h-8"
                  aria-label={`Preview ${i.title} (opens in a new tab)`}
                >
                  Preview
                </a>
                <RowActions name={i.title} onEdit={() => setEditing(i)} onDelete={() => setDeleting(i)} />
              </div>
            </td>
          </tr>
        ))}
      </StackTable>
    );

  return (
    <EditorCard title="Insights Management" actions={<Button onClick={() => setEditing('new')}>New Insight</Button>}>
      {body}
      {opened && (
        <Suspense fallback={null}>
          <InsightFormDialog
            key={editing === null ? 'closed' : editing === 'new' ? 'new' : `${editing.id}-${editing.version}`}
            insight={editing}
            onClose={() => setEditing(null)}
          />
        </Suspense>
      )}
      <DeleteConfirm item={deleting} what="insight" onClose={() => setDeleting(null)} remove={remove} />
    </EditorCard>
  );
}
