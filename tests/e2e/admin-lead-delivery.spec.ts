import type { BrowserContext } from '@playwright/test';
import { SmtpSink } from '../integration/helpers/smtp';
import { axeViolations } from './axe';
import { expect, test } from './fixtures';
import { signedInContext, startOwnServer, type OwnServer } from './helpers/own-server';
import { e2ePort } from './servers.mjs';

/*
 * A fresh install as a newcomer gets it: the seeded example contact details, the first
 * administrator at a placeholder address, no CONTACT_NOTIFY_TO, and mail to a real SMTP server.
 * The shared e2e server names a recipient (tests/e2e/serve.mjs), so this file starts its own.
 */

// A server start (seed and first publish) and several saves on a 2-core machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

/** A slot far above the parallel workers' (tests/e2e/servers.mjs), so its port and data are its own. */
const SLOT = 90;
const URL = `http://localhost:${e2ePort(SLOT)}`;
const REAL = 'sales@harbor-federal.com';
const WARNING = /^New inquiries are not e-mailed to anyone: /;

let server: OwnServer | undefined;
let sink: SmtpSink;
let context: BrowserContext;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  sink = await SmtpSink.start();
  server = await startOwnServer(SLOT, { CONTACT_NOTIFY_TO: '', SMTP_URL: sink.url });
  context = await signedInContext(browser, URL);
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  await sink?.stop();
});

test('[ADMIN][LEADS]: with nobody real to notify, a red banner on every tab says so and links to the contact e-mail', async () => {
  const page = await context.newPage();
  await page.goto('/admin');
  const banner = page.getByRole('alert').filter({ hasText: WARNING });
  await expect(banner).toBeVisible();
  await expect(banner).toHaveClass(/bg-red-50/);
  expect(await axeViolations(page, { include: '[role="alert"]', wcag: true })).toEqual([]);
  for (const tab of ['Blog', 'Account', 'Company']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(banner, `on ${tab}`).toBeVisible();
  }
  // From another tab, the banner's link opens the contact details with the e-mail focused.
  await banner.getByRole('link', { name: 'Edit the contact e-mail' }).click();
  await expect(page.getByRole('tab', { name: /Contacts/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
  await page.close();
});

test('[ADMIN][LEADS]: the checklist lists the example e-mail, phone and address; each link focuses its field', async () => {
  const page = await context.newPage();
  await page.goto('/admin#company');
  const checklist = page.getByRole('region', { name: 'Before you launch' });
  await expect(checklist.getByText(/The contact e-mail info@example\.com is an example address/)).toBeVisible();
  await expect(checklist.getByText(/The contact phone \(555\) 010-0100 is an example number/)).toBeVisible();
  await expect(checklist.getByText(/The contact address is the example address/)).toBeVisible();
  expect(await axeViolations(page, { include: 'section[aria-labelledby="setup-checklist-title"]', wcag: true })).toEqual([]);

  await checklist.getByRole('link', { name: 'Replace the phone in Contacts' }).click();
  await expect(page.getByRole('tab', { name: /Contacts/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Phone', { exact: true })).toBeFocused();
  // Back to the checklist (in the Company tab): the next link, by keyboard, opens the editor again at its field.
  await page.getByRole('tab', { name: 'Company' }).click();
  await page.getByRole('region', { name: 'Before you launch' }).getByRole('link', { name: 'Replace the address in Contacts' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: /Contacts/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Address', { exact: true })).toBeFocused();
  await page.close();
});

test('[ADMIN][LEADS]: a real contact e-mail clears the banner; Send test inquiry shows who it went to and Delivered, or the refusal', async () => {
  const page = await context.newPage();
  await page.goto('/admin#contacts');
  const banner = page.getByRole('alert').filter({ hasText: WARNING });
  await banner.getByRole('link', { name: 'Edit the contact e-mail' }).click();
  const email = page.getByLabel('Email', { exact: true });
  await expect(email).toBeFocused();
  await email.fill(REAL);
  await page.getByRole('button', { name: /^(Save Changes|Update)/ }).click();
  await expect(banner).toBeHidden({ timeout: 20_000 });

  const card = page.getByRole('region', { name: 'Inquiry E-mails' });
  await expect(card.getByText(`New inquiries are e-mailed to ${REAL} (from the active contact e-mail).`)).toBeVisible();
  const before = sink.received.length;
  await card.getByRole('button', { name: 'Send test inquiry' }).click();
  const results = card.getByRole('list', { name: 'Test inquiry results' });
  await expect(results.getByRole('listitem')).toHaveText(`${REAL}: Delivered`);
  await expect(card.getByText('Test inquiry sent by SMTP to 1 recipient:')).toBeVisible();
  await sink.sync();
  expect(sink.received.slice(before).map((m) => m.to)).toEqual([[REAL]]);
  expect(await axeViolations(page, { include: 'section[aria-label="Inquiry E-mails"]', wcag: true })).toEqual([]);

  sink.mode('refuse');
  try {
    await card.getByRole('button', { name: 'Send test inquiry' }).click();
    await expect(results.getByRole('listitem')).toContainText(
      `${REAL}: Refused by the mail server: 451 Mailbox temporarily unavailable, try again later`,
    );
  } finally {
    sink.mode('accept');
  }
  await page.close();
});
