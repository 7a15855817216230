import { useCallback } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#components/ui/tabs.tsx';
import { splitAboutContent as splitAbout } from '#lib/format.ts';
import type { ChecklistRecord } from '#shared/launch-checklist.ts';
import { ACTIVE_FIELD, BlockEditor } from '../../components/block-editors';
import { FeatureCardsEditor } from '../../components/feature-cards-editor';
import { useRecordRequests } from '../../components/contact-field-request';
import { useGuardedTab } from '../../components/unsaved-changes';
import { LeadershipEditor } from './leadership-editor';
import { ImageValue } from '../../components/image-value';

const asForm = (s: unknown) => s as z.ZodType<FieldValues, FieldValues>;
const content = () => import('#shared/schemas/content.ts');
const aboutForm = () => content().then((m) => asForm(m.aboutFormSchema));
const missionForm = () => content().then((m) => asForm(m.missionSchema));
/** Which section of this tab edits a record the launch checklist links to. */
const SECTION_OF: Record<string, string> = { 'block:about': 'main', 'block:about_mission': 'mission', 'feature:about': 'features' };
const ABOUT_FAILURE = () => 'Failed to update about content. Please try again.';

/** SPEC 2.15 About Us Page Editor: Main Content, Mission, Why Choose Us. */
export function AboutTab() {
  const { value, onValueChange } = useGuardedTab('main');
  // A launch checklist link to a record of this page opens its section; the record's editor takes the request.
  useRecordRequests(
    useCallback(
      (r: ChecklistRecord) => {
        const section = SECTION_OF[`${r.kind}:${r.section}`];
        if (section) onValueChange(section);
        return false;
      },
      [onValueChange],
    ),
  );
  return (
    <section aria-label="About Us Page Editor">
      <h2 className="mb-4 text-lg font-semibold">About Us Page Editor</h2>
      <Tabs value={value} onValueChange={(next) => onValueChange(next)} activationMode="manual">
        <TabsList aria-label="About page sections">
          <TabsTrigger value="main">Main Content</TabsTrigger>
          <TabsTrigger value="mission">Mission</TabsTrigger>
          <TabsTrigger value="leadership">Leadership</TabsTrigger>
          <TabsTrigger value="features">Why Choose Us</TabsTrigger>
        </TabsList>
        <TabsContent value="main">
          <BlockEditor
            section="about"
            title="Main Content"
            schema={aboutForm}
            allowCreateNew
            editLabel="Edit Content"
            draftKind="about"
            fields={[
              { name: 'title', label: 'Title' },
              { name: 'subtitle', label: 'Subtitle', kind: 'textarea', rows: 2 },
              { name: 'content', label: 'Content', kind: 'textarea', rows: 8 },
              {
                name: 'imageUrl',
                label: 'About image (optional)',
                kind: 'image',
                variant: 'about',
                altName: 'imageAlt',
                help: 'PNG or JPG, under 5MB.',
              },
              ACTIVE_FIELD,
            ]}
            toForm={(b) => {
              const { subtitle, body } = splitAbout(b?.content ?? '');
              return {
                title: b?.title ?? '',
                subtitle,
                content: body,
                imageUrl: b?.imageUrl ?? '',
                imageAlt: b?.imageAlt ?? '',
                isActive: b?.isActive ?? true,
              };
            }}
            view={(b) => {
              const { subtitle, body } = splitAbout(b.content);
              return [
                { label: 'Title', value: b.title },
                { label: 'Subtitle', value: subtitle },
                { label: 'Content', value: body },
                { label: 'About image', value: b.imageUrl && <ImageValue url={b.imageUrl} alt={b.imageAlt} /> },
              ];
            }}
            success="Content updated"
            failure={ABOUT_FAILURE}
          />
        </TabsContent>
        <TabsContent value="mission">
          <BlockEditor
            section="about_mission"
            title="Mission"
            draftKind="about-mission"
            schema={missionForm}
            fields={[
              { name: 'title', label: 'Title' },
              { name: 'content', label: 'Mission statement', kind: 'textarea', rows: 5 },
              {
                name: 'imageUrl',
                label: 'Mission image (optional)',
                kind: 'image',
                variant: 'about',
                altName: 'imageAlt',
                help: 'PNG or JPG, under 5MB.',
              },
              ACTIVE_FIELD,
            ]}
            toForm={(b) => ({
              title: b?.title ?? 'Our Mission',
              content: b?.content ?? '',
              imageUrl: b?.imageUrl ?? '',
              imageAlt: b?.imageAlt ?? '',
              isActive: b?.isActive ?? true,
            })}
            success="Mission statement updated"
            failure={() => 'Failed to update mission content. Please try again.'}
          />
        </TabsContent>
        <TabsContent value="leadership">
          <LeadershipEditor />
        </TabsContent>
        <TabsContent value="features">
          <FeatureCardsEditor section="about" title="Why Choose Us" description="Active cards appear on the about page by display order." />
        </TabsContent>
      </Tabs>
    </section>
  );
}
