import { useQuery } from '@tanstack/react-query';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { companyProfileQuery, useSaveCompanyProfile, type CompanyProfile } from '../../api/company-profile';
import { RecordEditor } from '../../components/record-editor';
import type { FieldSpec } from '../../components/schema-form';
import { ImageValue } from '../../components/image-value';

const leadershipForm = () =>
  import('#shared/schemas/company-profile.ts').then((m) => m.leadershipSchema as unknown as z.ZodType<FieldValues, FieldValues>);

const FIELDS: FieldSpec[] = [
  { name: 'founderName', label: 'Name', help: 'The section shows on the about page once a name is set.' },
  { name: 'founderTitle', label: 'Title (optional)', help: 'E.g. Founder and CEO.' },
  {
    name: 'founderPhoto',
    label: 'Photo (optional)',
    kind: 'image',
    variant: 'about',
    altName: 'founderPhotoAlt',
    help: 'PNG or JPG, under 5MB.',
  },
  { name: 'founderStory', label: 'Short story (optional)', kind: 'textarea', rows: 6, help: 'At most 1,000 characters.' },
];

const KEYS = ['founderName', 'founderTitle', 'founderPhoto', 'founderPhotoAlt', 'founderStory'] as const;

/** Leadership on /about: the founder's name, title, photo and story, kept in the company profile. */
export function LeadershipEditor() {
  const query = useQuery({ ...companyProfileQuery, select: (p: CompanyProfile) => [p] });
  const save = useSaveCompanyProfile({ success: 'Leadership updated', failure: 'Failed to update leadership' });
  return (
    <RecordEditor
      title="Leadership"
      description="The founder on the about page; nothing shows there until a name is set."
      query={query}
      schema={leadershipForm}
      fields={FIELDS}
      editLabel="Edit Leadership"
      toForm={(p) => Object.fromEntries(KEYS.map((k) => [k, p?.[k] ?? '']))}
      view={(p) => [
        { label: 'Name', value: p.founderName },
        { label: 'Title', value: p.founderTitle },
        { label: 'Photo', value: p.founderPhoto && <ImageValue url={p.founderPhoto} alt={p.founderPhotoAlt} /> },
        { label: 'Story', value: p.founderStory },
      ]}
      save={({ version, values }) => save.mutateAsync({ version: version!, values, page: '/about' })}
    />
  );
}
