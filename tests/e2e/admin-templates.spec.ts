import { expect, openTab, test, toast, unique } from './helpers/admin';
import { outboxMailsWith } from './helpers/outbox';
import { axeViolations } from './axe';

test.slow();

test('[ADMIN][TEMPLATES]: create a template with validation and a live preview, send a test e-mail, activate it, delete it', async ({
  page,
}) => {
  const id = unique();
  const name = `Spring look ${id}`;
  await openTab(page, 'Templates');
  const cards = page.getByRole('listitem');
  await expect(cards.filter({ hasText: 'Contact response' }).filter({ hasText: 'Active' })).toHaveCount(1);
  const seeded = (await (await page.request.get('/api/admin/email-templates')).json()).find(
    (t: { templateType: string; isActive: boolean }) => t.templateType === 'contact_response' && t.isActive,
  );

  await page.getByRole('button', { name: 'New Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Email Template' });
  // The spec's defaults for a new template.
  await expect(dialog.getByLabel('Template type')).toHaveValue('contact_response');
  await expect(dialog.getByLabel('Header background colour')).toHaveValue('#1e293b');
  await expect(dialog.getByRole('switch', { name: 'Make this the active template for this type' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  // axe cannot run inside the sandboxed preview (it allows no scripts), so the dialog is checked
  // with the plain-text part shown; the frame's title is asserted below.
  await dialog.getByRole('button', { name: 'Plain text' }).click();
  expect(await axeViolations(page, { include: '[role="dialog"]' })).toEqual([]);
  await dialog.getByRole('button', { name: 'HTML' }).click();
  await expect(dialog.locator('iframe')).toHaveAttribute('title', 'E-mail preview');
  // Sandboxed with nothing allowed but the origin the dialog writes each version in through:
  // no scripts, forms, popups or navigation of the page.
  await expect(dialog.locator('iframe')).toHaveAttribute('sandbox', 'allow-same-origin');

  await dialog.getByLabel('Header background colour').fill('red');
  await dialog.getByLabel('Signature email').fill('pat@');
  await dialog.getByRole('button', { name: 'Create Template' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expect(dialog.getByText('Invalid hex color')).toBeVisible();
  await expect(dialog.getByText('Signature email must be a valid email address')).toBeVisible();
  await expect(dialog.getByLabel('Header background colour')).toHaveAccessibleDescription('Invalid hex color');

  await dialog.getByLabel('Template name').fill(name);
  await dialog.getByLabel('Header background colour').fill('#7a1f5c');
  await dialog.getByLabel('Signature email').fill('pat@example.com');
  await dialog.getByLabel('Signature name').fill(`Pat ${id}`);
  await dialog.getByLabel('Font').selectOption({ label: 'Georgia' });

  // Live preview: the sample reply with the colours as typed, signed as a real reply is: with the
  // company's name from the profile, not the template's signature name.
  const { context } = (await (await page.request.get('/api/admin/reply-setup')).json()) as { context: { sender: { name: string } } };
  const preview = dialog.frameLocator('iframe[title="E-mail preview"]');
  await expect(preview.getByText('Dear Jane Buyer,')).toBeVisible();
  await expect(preview.getByText(context.sender.name, { exact: true })).toBeVisible();
  await expect(preview.getByText(`Pat ${id}`)).toHaveCount(0);
  await expect(preview.locator('td[style*="background:#7a1f5c"]')).toHaveCount(1);
  await expect(dialog.getByText('Subject: Re: RFQ 36C10X26Q0123 – Your inquiry to')).toBeVisible();
  await dialog.getByRole('button', { name: 'Plain text' }).click();
  await expect(dialog.locator('pre')).toContainText('Dear Jane Buyer,');
  await dialog.getByRole('button', { name: 'HTML' }).click();

  await dialog.getByRole('button', { name: 'Send test e-mail' }).click();
  await expect(toast(page)).toContainText('Test e-mail sent');
  // The subject is encoded (it holds a dash): the sample's quoted inquiry finds the message.
  await expect.poll(() => outboxMailsWith('We need 40 laptops', 'background:#7a1f5c').length, { timeout: 20_000 }).toBe(1);
  expect(outboxMailsWith('We need 40 laptops', 'background:#7a1f5c')[0]).toMatch(/^To: admin@example\.com$/m);

  await dialog.getByRole('switch', { name: 'Make this the active template for this type' }).click();
  await dialog.getByRole('button', { name: 'Create Template' }).click();
  await expect(toast(page)).toContainText('Email template created successfully');
  const card = cards.filter({ hasText: name });
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByText('#7a1f5c')).toBeVisible();
  // The server kept one active response template.
  await expect(cards.filter({ hasText: 'Contact response' }).filter({ hasText: 'Active' })).toHaveCount(1);

  // Put the seeded template back in charge, then delete the new one.
  const list = (await (await page.request.get('/api/admin/email-templates')).json()) as { id: number; version: number }[];
  const back = list.find((t) => t.id === seeded.id)!;
  expect(
    (await page.request.patch(`/api/admin/email-templates/${seeded.id}`, { data: { isActive: true, version: back.version } })).ok(),
  ).toBe(true);
  await page.reload();
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete email template?' });
  await expect(confirm.getByText('Are you sure you want to delete this email template?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Email template deleted successfully');
  await expect(cards.filter({ hasText: name })).toHaveCount(0);
});
