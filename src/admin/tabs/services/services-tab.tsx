import { BlockEditor } from '../../components/block-editors';
import { FeatureCardsEditor } from '../../components/feature-cards-editor';
import { ServiceList } from './service-list';
import { errorMessage } from '#lib/api-client.ts';

/** SPEC 2.15 Services tab: the services hero, the list of services and the federal page's product cards. */
export function ServicesTab() {
  return (
    <div className="space-y-6">
      <BlockEditor
        section="services_hero"
        title="Services Hero"
        description="The top of the /services page."
        fields={[
          { name: 'title', label: 'Title' },
          { name: 'content', label: 'Description', kind: 'textarea', rows: 3 },
        ]}
        success="Content updated"
        failure={(isCreate, err) =>
          `Failed to ${isCreate ? 'create' : 'update'} Services Hero content: ${errorMessage(err, 'Unknown error')}`
        }
      />
      <ServiceList />
      <FeatureCardsEditor
        section="federal"
        title="Product Capabilities"
        description="The product cards of the federal capabilities page (/services/federal): active ones appear by display order."
      />
    </div>
  );
}
