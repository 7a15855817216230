import { ACTIVE_FIELD, BlockEditor } from '../../components/block-editors';
import { FeatureCardsEditor } from '../../components/feature-cards-editor';
import { HeaderCtaEditor } from './header-cta-editor';
import { HeaderEditor } from './header-editor';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';

const asForm = (s: unknown) => s as z.ZodType<FieldValues, FieldValues>;
const content = () => import('#shared/schemas/content.ts');
const introForm = () => content().then((m) => asForm(m.introSchema));
const homeCtaForm = () => content().then((m) => asForm(m.homeCtaSchema));

/** SPEC 2.15 Homepage tab: header, header CTA, introduction, feature cards, bottom call to action. */
export function HomepageTab() {
  return (
    <div className="space-y-6">
      <HeaderEditor />
      <HeaderCtaEditor />
      <BlockEditor
        section="intro"
        title="Introduction Content"
        schema={introForm}
        fields={[
          { name: 'title', label: 'Title' },
          {
            name: 'content',
            label: 'Content',
            kind: 'textarea',
            rows: 5,
            help: 'Formatting is removed: the text is saved as plain text.',
          },
          ACTIVE_FIELD,
        ]}
        success="Intro updated"
        failure={() => 'Failed to update intro content. Please try again.'}
      />
      <FeatureCardsEditor section="home" title="Home Feature Cards" description="Active cards appear on the home page by display order." />
      <BlockEditor
        section="home_cta"
        title="Call to Action Section"
        schema={homeCtaForm}
        fields={[{ name: 'title', label: 'Title' }, { name: 'content', label: 'Content', kind: 'textarea', rows: 3 }, ACTIVE_FIELD]}
        success="CTA section updated"
        failure={() => 'Failed to update CTA content. Please try again.'}
      />
    </div>
  );
}
