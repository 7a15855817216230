import { useQuery } from '@tanstack/react-query';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { SUGGESTED_BACKGROUNDS } from '#shared/constants.ts';
import { sectionQuery, useSaveSection, type HeaderContent } from '../../api/content';
import { RecordEditor } from '../../components/record-editor';
import type { FieldSpec } from '../../components/schema-form';
import { ImageValue } from '../../components/image-value';

const headerForm = () => import('#shared/schemas/header.ts').then((m) => m.headerSchema as unknown as z.ZodType<FieldValues, FieldValues>);

const FIELDS: FieldSpec[] = [
  { name: 'title', label: 'Title' },
  { name: 'subtitle', label: 'Subtitle', kind: 'textarea', rows: 3 },
  {
    name: 'backgroundImage',
    label: 'Background image',
    kind: 'image',
    altName: 'backgroundImageAlt',
    required: true,
    help: 'Suggested size 1920x1000.',
    suggestions: SUGGESTED_BACKGROUNDS.map((value, i) => ({ value, label: `Suggested background ${i + 1}` })),
  },
  // The logos have no alt field: their alt text is the company name.
  { name: 'logoLight', label: 'Logo on light background', kind: 'image', required: true },
  { name: 'logoDark', label: 'Logo on dark background', kind: 'image', required: true },
  { name: 'boxHeading', label: 'Highlight box title (optional)' },
  { name: 'boxContent', label: 'Highlight box text (optional, shown only with a title)', kind: 'textarea', rows: 2 },
];

/** Website header: the home hero's title and subtitle, logos and background. */
export function HeaderEditor() {
  const query = useQuery(sectionQuery<HeaderContent>('header'));
  const save = useSaveSection<HeaderContent>('header', {
    success: 'Header updated',
    failure: () => 'Failed to update header content. Please try again.',
  });
  return (
    <RecordEditor
      title="Header Content"
      description="The home page hero and the site logo."
      query={query}
      schema={headerForm}
      fields={FIELDS}
      toForm={(h) =>
        Object.fromEntries([...FIELDS.map((f) => f.name), 'backgroundImageAlt'].map((n) => [n, h?.[n as keyof HeaderContent] ?? '']))
      }
      view={(h) => [
        { label: 'Title', value: h.title },
        { label: 'Subtitle', value: h.subtitle },
        { label: 'Logo on light background', value: h.logoLight && <ImageValue url={h.logoLight} altless /> },
        { label: 'Logo on dark background', value: h.logoDark && <ImageValue url={h.logoDark} altless dark /> },
        { label: 'Background', value: h.backgroundImage && <ImageValue url={h.backgroundImage} alt={h.backgroundImageAlt} /> },
        { label: 'Highlight box title', value: h.boxHeading },
        { label: 'Highlight box text', value: h.boxContent },
      ]}
      save={(vars) => save.mutateAsync(vars)}
      requested={(r) => r.kind === 'header'}
    />
  );
}
