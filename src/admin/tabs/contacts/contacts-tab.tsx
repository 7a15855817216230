import { ContactInfoEditor } from './contact-info-editor';
import { SubmissionsCard } from './submissions-card';
import { TestInquiryCard } from './test-inquiry-card';

/** The Contacts tab: the submissions (with the sales team's filters and export), then the business contact details. */
export function ContactsTab() {
  return (
    <div className="space-y-6">
      <SubmissionsCard />
      <ContactInfoEditor />
      <TestInquiryCard />
    </div>
  );
}
