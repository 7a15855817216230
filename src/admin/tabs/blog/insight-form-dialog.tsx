import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { INSIGHT_CATEGORIES, LIMITS } from '#shared/constants.ts';
import { insightSchema } from '#shared/schemas/insight.ts';
import { useSaveInsight, type Insight } from '../../api/insights';
import { saveFormProps } from '../../components/row-actions';
import { draftKey } from '../../components/local-draft';
import { SchemaForm, type FieldSpec } from '../../components/schema-form';
import { FormDialog } from '../../components/unsaved-changes';
import { categoryLabel } from './categories';

const FIELDS: FieldSpec[] = [
  { name: 'title', label: 'Title' },
  { name: 'slug', label: 'Slug', kind: 'slug', help: 'Lowercase letters, numbers and hyphens; generated from the title when left empty.' },
  { name: 'category', label: 'Category', kind: 'select', options: INSIGHT_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) })) },
  { name: 'excerpt', label: 'Summary', kind: 'textarea', rows: 2, help: '10 to 200 characters.' },
  {
    name: 'content',
    label: 'Content',
    kind: 'markdown',
    rows: 10,
    help: 'At least 50 characters. Each line is a paragraph; the buttons add headings, bold, italic, lists, links and quotes (Markdown).',
  },
  { name: 'readMinutes', label: 'Read time (minutes)', kind: 'number' },
  { name: 'authorName', label: 'Author name' },
  { name: 'authorTitle', label: 'Author title' },
  { name: 'featuredImage', label: 'Featured image (optional)', kind: 'image', altName: 'featuredImageAlt' },
  { name: 'tags', label: 'Tags (comma-separated)' },
  { name: 'isPublished', label: 'Published', kind: 'switch' },
];

interface Props {
  insight: Insight | 'new' | null;
  onClose: () => void;
}

/** Create or edit an insight with every SPEC 5 rule (the same schema the endpoint parses). */
export function InsightFormDialog({ insight, onClose }: Props) {
  const save = useSaveInsight();
  const current = insight === 'new' ? undefined : (insight ?? undefined);
  return (
    <FormDialog
      open={insight !== null}
      onClose={onClose}
      title={current ? 'Edit Insight' : 'New Insight'}
      className="sm:w-[min(48rem,calc(100vw-2rem))]"
    >
      {insight !== null && (
        <SchemaForm
          isCreate={!current}
          draftKey={draftKey('insight', current?.id)}
          schema={insightSchema as unknown as z.ZodType<FieldValues, FieldValues>}
          fields={FIELDS}
          defaultValues={{
            title: current?.title ?? '',
            slug: current?.slug ?? '',
            category: current?.category ?? 'industry_spotlights',
            excerpt: current?.excerpt ?? '',
            content: current?.content ?? '',
            readMinutes: current?.readMinutes ?? LIMITS.insightReadMinutesDefault,
            authorName: current?.authorName ?? '',
            authorTitle: current?.authorTitle ?? '',
            featuredImage: current?.featuredImage ?? '',
            featuredImageAlt: current?.featuredImageAlt ?? '',
            tags: current?.tags.join(', ') ?? '',
            isPublished: current?.isPublished ?? false,
          }}
          {...saveFormProps(
            current,
            // The switch alone decides the date: the server stamps or keeps it (SPEC 4).
            {
              mutateAsync: ({ values: { publicationDate: _d, relatedInsights: _r, ...rest }, ...ids }) =>
                save.mutateAsync({ ...ids, values: rest }),
            },
            onClose,
            'Create Insight',
          )}
        />
      )}
    </FormDialog>
  );
}
