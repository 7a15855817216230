import { useQuery } from '@tanstack/react-query';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import type { ContentSection } from '#shared/constants.ts';
import { sectionQuery, useSaveSection, type ContentBlock } from '../api/content';
import type { SchemaLoader } from './lazy-form';
import { RecordEditor, type ViewRow } from './record-editor';
import type { FieldSpec } from './schema-form';

interface BlockEditorProps {
  section: ContentSection;
  title: string;
  description?: string;
  fields: FieldSpec[];
  success: string;
  failure: (isCreate: boolean, err: unknown) => string;
  /** Defaults to the section's shared schema. */
  schema?: SchemaLoader;
  toForm?: (block: ContentBlock | undefined) => FieldValues;
  view?: (block: ContentBlock) => ViewRow[];
  allowCreateNew?: boolean;
  editLabel?: string;
  /** Long texts: keep unsaved changes as a local draft of this kind (see RecordEditor). */
  draftKind?: string;
}

/** Each section's shared schema, imported with the form. */
const sectionSchemas = new Map<ContentSection, SchemaLoader>();
const sectionSchema = (section: ContentSection): SchemaLoader => {
  let load = sectionSchemas.get(section);
  if (!load) {
    load = () =>
      import('#shared/schemas/content.ts').then((m) => m.CONTENT_BLOCK_SCHEMAS[section] as unknown as z.ZodType<FieldValues, FieldValues>);
    sectionSchemas.set(section, load);
  }
  return load;
};

const blankOf = (fields: FieldSpec[]) => Object.fromEntries(fields.map((f) => [f.name, f.kind === 'switch' ? true : '']));

/** One generic content block (intro, home CTA, services hero, mission...) in view/edit mode. */
export function BlockEditor(props: BlockEditorProps) {
  const { section, fields } = props;
  const query = useQuery(sectionQuery(section));
  const save = useSaveSection(section, { success: props.success, failure: props.failure });
  const toForm =
    props.toForm ??
    ((block: ContentBlock | undefined) =>
      Object.fromEntries(
        fields.map((f) => {
          const stored = block?.[f.name as keyof ContentBlock];
          return [f.name, stored ?? blankOf([f])[f.name]];
        }),
      ));
  const view =
    props.view ??
    ((block: ContentBlock) =>
      fields.filter((f) => f.kind !== 'switch').map((f) => ({ label: f.label, value: String(block[f.name as keyof ContentBlock] ?? '') })));
  return (
    <RecordEditor
      title={props.title}
      description={props.description}
      query={query}
      schema={props.schema ?? sectionSchema(section)}
      fields={fields}
      toForm={toForm}
      view={view}
      save={(vars) => save.mutateAsync(vars)}
      allowCreateNew={props.allowCreateNew}
      editLabel={props.editLabel}
      draftKind={props.draftKind}
      requested={(r) => r.kind === 'block' && r.section === section}
    />
  );
}

export const ACTIVE_FIELD: FieldSpec = { name: 'isActive', label: 'Active (shown on the website)', kind: 'switch' };
