/*
 * Tabs whose editors arrive with later work. They say so plainly instead of showing
 * controls that do nothing.
 */
function Pending({ title, text }: { title: string; text: string }) {
  return (
    <section className="rounded-lg border border-line bg-white p-6" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-2 text-sm text-muted">{text}</p>
    </section>
  );
}

export function ContactsTab() {
  return (
    <Pending
      title="Contacts"
      text="Contact submissions and the business contact information editor are not available in this version yet. Submissions are kept safely on the server."
    />
  );
}

export function DocumentsTab() {
  return <Pending title="Documents" text="Uploading and managing capability documents is not available in this version yet." />;
}

export function TemplatesTab() {
  return (
    <Pending title="Templates" text="Editing e-mail templates is not available in this version yet; the default templates are used." />
  );
}
