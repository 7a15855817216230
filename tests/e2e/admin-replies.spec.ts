import type { Page } from '@playwright/test';
import { expect, openTab, test, toast, unique } from './helpers/admin';
import { outboxMailsWith } from './helpers/outbox';
import { axeViolations } from './axe';

// Uploads, saves, a rebuild and a mail delivery on a 2-core machine: triple the timeout.
test.slow();

/** An active capability statement, uploaded as the Documents tab does; returns its id and public URL path. */
async function uploadCapabilityStatement(page: Page, title: string): Promise<{ id: number; filePath: string }> {
  const slot = await (await page.request.post('/api/documents/upload')).json();
  const pdf = Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${title}\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
  const put = await page.request.put(slot.uploadURL, { data: pdf, headers: { 'content-type': 'application/pdf' } });
  expect(put.ok()).toBe(true);
  const { url } = await put.json();
  const res = await page.request.post('/api/documents', {
    data: { title, category: 'capability', filePath: url, fileName: `${title}.pdf`, isActive: true, displayOrder: 0 },
  });
  expect(res.status()).toBe(201);
  const doc = await res.json();
  return { id: doc.id, filePath: doc.filePath };
}

/** Puts the cursor at `at` in the textarea (as a click there would). */
const cursorAt = (page: Page, label: string, at: number) =>
  page.getByLabel(label).evaluate((el: HTMLTextAreaElement, n) => {
    el.focus();
    el.setSelectionRange(n, n);
  }, at);

test('[ADMIN][REPLIES]: the Respond dialog shows the e-mail as it will be sent; greeting editable; a saved reply goes in when chosen, in view on a phone; capability link at the cursor; a reply with nothing written asks first; sent as written', async ({
  page,
  baseURL,
}) => {
  const id = unique();
  const name = `Dana Smith ${id}`;
  const email = `dana.${id}@agency.gov`;
  const snippet = `Delivery takes two weeks after award (${id}).`;
  const saved = await (await page.request.post('/api/admin/saved-replies', { data: { title: `Lead time ${id}`, body: snippet } })).json();
  const other = await (
    await page.request.post('/api/admin/saved-replies', { data: { title: `Next steps ${id}`, body: `Next (${id}).` } })
  ).json();
  const doc = await uploadCapabilityStatement(page, `Capability ${id}`);
  const capabilityUrl = new URL(doc.filePath, baseURL).toString();
  try {
    const sent = await page.request.post('/api/contact', {
      data: { name, email, message: `Can you quote forty laptops? Ref ${id}.`, solicitation: '36C10X26Q0123', elapsedMs: 10_000 },
    });
    expect(sent.status()).toBe(201);
    const { context } = await (await page.request.get('/api/admin/reply-setup')).json();

    // The administrator's own signature (Account tab) signs the reply.
    await openTab(page, 'Account');
    const card = page.getByRole('region', { name: 'Reply Signature' });
    await card.getByLabel('Name').fill(`Pat Sterling ${id}`);
    await card.getByLabel('Title').fill('President');
    await card.getByRole('button', { name: 'Save Signature' }).click();
    await expect(toast(page)).toContainText('Signature Saved');

    await openTab(page, 'Contacts');
    await page
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: `Respond to ${name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Respond to ${name}` });
    const box = dialog.getByLabel('Your Response');
    await expect(box).toHaveValue(`Dear ${name},\n\n`);

    // On a phone: a saved reply goes in as soon as it is chosen, after the greeting of the untouched
    // text wherever the cursor was, and the box stays in view. Choosing another swaps it; none takes it out.
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 700 });
    await cursorAt(page, 'Your Response', 0);
    const picker = dialog.getByLabel('Insert a saved reply');
    await picker.scrollIntoViewIfNeeded();
    await picker.selectOption({ label: `Lead time ${id}` });
    await expect(box).toHaveValue(`Dear ${name},\n\n${snippet}`);
    await expect(box).toBeInViewport({ ratio: 1 });
    await picker.selectOption({ label: `Next steps ${id}` });
    await expect(box).toHaveValue(`Dear ${name},\n\nNext (${id}).`);
    await picker.selectOption({ label: 'Choose a saved reply…' });
    await expect(box).toHaveValue(`Dear ${name},\n\n`);
    await page.setViewportSize(desktop);
    // Typing starts after the greeting.
    await box.focus();
    await page.keyboard.type('Thank you.');
    await expect(box).toHaveValue(`Dear ${name},\n\nThank you.`);

    // The preview is the whole e-mail: subject, the text (greeting once), the signature, the quoted inquiry.
    // The subject keeps the buyer's RFQ number.
    await expect(dialog.getByText(`Subject: Re: RFQ 36C10X26Q0123 – Your inquiry to ${context.siteName}`)).toBeVisible();
    // Scrolled to, as a reader would.
    await dialog.locator('iframe[title="Reply preview"]').scrollIntoViewIfNeeded();
    const html = dialog.frameLocator('iframe[title="Reply preview"]');
    await expect(html.getByText(`Dear ${name},`)).toBeVisible();
    await expect(html.getByText('Thank you.')).toBeVisible();
    await expect(html.getByText(`Pat Sterling ${id}`, { exact: true })).toBeVisible();
    await expect(html.locator('p', { hasText: `Pat Sterling ${id}` })).toContainText(`President${context.sender.name}`);
    await expect(html.getByText(`Can you quote forty laptops? Ref ${id}.`)).toBeVisible();

    // The greeting is ordinary text: replaced by the owner's own.
    await box.fill('Hi Dana,\n\nOur capability statement: \n\nBest regards,\nPat');
    await expect(html.getByText('Hi Dana,')).toBeVisible();
    await expect(html.getByText(`Dear ${name},`)).toHaveCount(0);

    // Inserted at the cursor, not at the end.
    const afterColon = 'Hi Dana,\n\nOur capability statement: '.length;
    await cursorAt(page, 'Your Response', afterColon);
    await dialog.getByRole('button', { name: 'Insert capability statement link' }).click();
    await expect(box).toHaveValue(`Hi Dana,\n\nOur capability statement: ${capabilityUrl}\n\nBest regards,\nPat`);
    await expect(box).toBeFocused();
    // The HTML part links it.
    await expect(html.getByRole('link', { name: capabilityUrl })).toHaveAttribute('href', capabilityUrl);

    // In a text already written, a saved reply goes in at the cursor.
    await cursorAt(page, 'Your Response', 'Hi Dana,\n\n'.length);
    await picker.selectOption({ label: `Lead time ${id}` });
    const written = `Hi Dana,\n\n${snippet}Our capability statement: ${capabilityUrl}\n\nBest regards,\nPat`;
    await expect(box).toHaveValue(written);

    // The plain-text part, exactly what goes out: the text, then the company's signature.
    await dialog.getByRole('button', { name: 'Plain text' }).click();
    const text = dialog.locator('pre');
    await expect(text).toContainText(`${written}\n\n-- \nPat Sterling ${id}\nPresident\n${context.sender.name}\n`);
    await expect(text).not.toContainText('Dear');
    await expect(text).not.toContainText('example.com');
    expect(await axeViolations(page, { include: '[role="dialog"]' })).toEqual([]);

    // Only the greeting and a link, nothing written: asked first, and nothing is sent on Cancel.
    await box.fill(`Dear ${name},\n\n${capabilityUrl}\n`);
    await dialog.getByRole('button', { name: 'Send' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Send without a message?' });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeHidden();
    await box.fill(written);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(toast(page)).toContainText('Response sent');
    await expect(dialog).toBeHidden();
    await expect.poll(() => outboxMailsWith(`(${id}).Our capability statement`).length, { timeout: 20_000 }).toBe(1);
    const eml = outboxMailsWith(`(${id}).Our capability statement`)[0]!;
    expect(eml).toMatch(new RegExp(`^To: ${email.replace(/\./g, '\\.')}$`, 'm'));
    expect(eml).toContain(capabilityUrl);
    expect(eml).not.toContain('Dear Dana');
    expect(eml).not.toContain('The Procurement Services Team');
    // The message itself shows no placeholder (the Reply-To header is the business mailbox setting).
    expect(eml.replace(/^Reply-To:.*$/m, '')).not.toContain('example.com');
  } finally {
    await page.request.delete(`/api/documents/${doc.id}`);
    await page.request.delete(`/api/admin/saved-replies/${saved.id}`);
    await page.request.delete(`/api/admin/saved-replies/${other.id}`);
    await page.request.put('/api/user/signature', { data: { name: '', title: '', phone: '' } });
  }
});

test('[ADMIN][TEMPLATES][SAVED REPLIES]: create with validation, edit, delete saved replies in the Templates tab', async ({ page }) => {
  const id = unique();
  const title = `Pricing ${id}`;
  await openTab(page, 'Templates');
  const card = page.getByRole('region', { name: 'Saved Replies' });
  await card.getByRole('button', { name: 'New Saved Reply' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Saved Reply' });
  await dialog.getByRole('button', { name: 'Create Saved Reply' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await expect(dialog.getByText('Text is required')).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveAccessibleDescription('Title is required');
  expect(await axeViolations(page, { include: '[role="dialog"]' })).toEqual([]);

  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Text').fill(`Our prices hold for 30 days (${id}).`);
  await dialog.getByRole('button', { name: 'Create Saved Reply' }).click();
  await expect(toast(page)).toContainText('Saved reply created');
  await expect(dialog).toBeHidden();
  const item = card.getByRole('listitem').filter({ hasText: title });
  await expect(item.getByText(`Our prices hold for 30 days (${id}).`)).toBeVisible();
  expect(await axeViolations(page, { include: 'section[aria-label="Saved Replies"]' })).toEqual([]);

  await item.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Saved Reply' });
  await expect(edit.getByLabel('Title')).toHaveValue(title);
  await edit.getByLabel('Text').fill(`Our prices hold for 60 days (${id}).`);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('Saved reply updated');
  await expect(item.getByText(`Our prices hold for 60 days (${id}).`)).toBeVisible();

  await item.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete saved reply?' });
  await expect(confirm.getByText(`Are you sure you want to delete the saved reply “${title}”?`)).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Saved reply deleted');
  await expect(card.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);
});
