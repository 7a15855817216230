import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openTab, test, toast, unique } from './helpers/admin';
import { e2eOutbox } from './servers.mjs';
import { axeViolations } from './axe';

// Several saves, a mail delivery and refetches per test on a 2-core machine: triple the timeout.
test.slow();

const OUTBOX = e2eOutbox();
/** The .eml files the local outbox has written that contain every given text. */
function mailsWith(...texts: string[]): string[] {
  if (!fs.existsSync(OUTBOX)) return [];
  return fs
    .readdirSync(OUTBOX)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => fs.readFileSync(path.join(OUTBOX, f), 'utf8').replace(/=\r?\n/g, ''))
    .filter((eml) => texts.every((t) => eml.includes(t)));
}

async function submitThroughApi(page: Page, body: Record<string, unknown>) {
  const res = await page.request.post('/api/contact', {
    data: { email: 'buyer@agency.gov', message: 'We need forty laptops by June.', elapsedMs: 10_000, ...body },
  });
  expect(res.status()).toBe(201);
}

test(
  '[ADMIN][CONTACTS]: a message from the public form reaches the tab and the staff; status, reply, and the reply in the outbox',
  { tag: '@db' },
  async ({ page }) => {
    const id = unique();
    const name = `Jane Buyer ${id}`;
    const email = `jane.${id}@agency.gov`;
    await page.clock.install();
    await page.goto('/contact');
    await page.getByLabel('Full Name').fill(name);
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Company (Optional)').fill('Department of Veterans Affairs');
    await page.getByLabel('Message').fill(`Quote <b>forty</b> laptops, ref ${id}.`);
    // A person takes longer than the form's minimum fill time; quicker sends are held as spam. The
    // page's clock is moved on instead of waiting.
    await page.clock.fastForward(3000);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    // The staff's notification, Reply-To the visitor, written by the mail worker.
    await expect.poll(() => mailsWith(`ref ${id}`, 'Subject: New inquiry from').length, { timeout: 20_000 }).toBe(1);
    expect(mailsWith(`ref ${id}`, 'Subject: New inquiry from')[0]).toMatch(new RegExp(`^Reply-To: ${email.replace(/\./g, '\\.')}$`, 'm'));

    await openTab(page, 'Contacts');
    await expect(page.getByRole('tab', { name: /Contacts \(\d+ new\)/ })).toBeVisible();
    await expect(page.getByText(/\d+ new inquir(y|ies)/)).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toBeVisible();
    // Shown as text, never as HTML.
    await expect(row.getByText(`Quote <b>forty</b> laptops, ref ${id}.`)).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Department of Veterans Affairs' })).toBeVisible();

    const status = row.getByRole('combobox', { name: `Status of ${name}` });
    await expect(status).toHaveValue('pending');
    await status.selectOption('completed');
    await expect(toast(page)).toContainText('Status updated');
    await expect(status).toHaveValue('completed');

    await row.getByRole('button', { name: `Respond to ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Respond to ${name}` });
    await expect(dialog.getByText(`Quote <b>forty</b> laptops, ref ${id}.`)).toBeVisible();
    await expect(dialog.getByText(`${name} <${email}>`)).toBeVisible();
    await expect(dialog.getByText('No responses yet.')).toBeVisible();
    const send = dialog.getByRole('button', { name: 'Send' });
    // Prefilled with the greeting, which is part of the text.
    await expect(dialog.getByLabel('Your Response')).toHaveValue(`Dear ${name},\n\n`);
    await dialog.getByLabel('Your Response').fill('   ');
    await expect(send).toBeDisabled();
    await dialog.getByLabel('Your Response').fill(`Thank you, a quote for ref ${id} follows.`);
    await expect(send).toBeEnabled();
    await send.click();
    await expect(toast(page)).toContainText('Response sent');
    await expect(dialog).toBeHidden();

    // The reply in the outbox: to the visitor, threaded under the inquiry.
    await expect.poll(() => mailsWith(`a quote for ref ${id} follows`).length, { timeout: 20_000 }).toBe(1);
    const reply = mailsWith(`a quote for ref ${id} follows`)[0]!;
    expect(reply).toMatch(new RegExp(`^To: ${email.replace(/\./g, '\\.')}$`, 'm'));
    expect(reply).toMatch(/^In-Reply-To: <inquiry\./m);

    // The earlier response, its time and its delivery state, once the worker has sent it.
    await expect(async () => {
      await page.reload();
      await page
        .getByRole('row')
        .filter({ hasText: name })
        .getByRole('button', { name: `Respond to ${name}` })
        .click();
      await expect(page.getByRole('dialog').getByText('E-mail: Delivered')).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    const again = page.getByRole('dialog', { name: `Respond to ${name}` });
    await expect(again.getByText(`Thank you, a quote for ref ${id} follows.`)).toBeVisible();
    await expect(again.getByText(/^Sent \w{3} \d{1,2}, \d{4}/)).toBeVisible();
    await expect(again.getByText('by admin')).toBeVisible();
  },
);

test(
  "[ADMIN][CONTACTS]: suspected spam waits in the Spam view until marked 'Not spam'; search and status filter; CSV export",
  { tag: '@db' },
  async ({ page }) => {
    const id = unique();
    await submitThroughApi(page, { name: `Spammy ${id}`, website: 'http://bot.example' });
    await submitThroughApi(page, { name: `Searchable ${id}`, company: '=HYPERLINK("x")' });
    await openTab(page, 'Contacts');
    await expect(page.getByRole('row').filter({ hasText: `Searchable ${id}` })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: `Spammy ${id}` })).toHaveCount(0);

    await page.getByRole('button', { name: /^Spam \(\d+\)$/ }).click();
    const spamRow = page.getByRole('row').filter({ hasText: `Spammy ${id}` });
    await expect(spamRow.getByText('Held as spam: honeypot')).toBeVisible();
    await spamRow.getByRole('button', { name: `Not spam: Spammy ${id}` }).click();
    await expect(toast(page)).toContainText('Moved to the inbox');
    await expect(spamRow).toHaveCount(0);
    await page.getByRole('button', { name: 'Inbox' }).click();
    await expect(page.getByRole('row').filter({ hasText: `Spammy ${id}` })).toBeVisible();

    // One letter is not a search: the box says so, described to screen readers, and nothing is asked.
    const searchbox = page.getByRole('searchbox', { name: 'Search submissions' });
    await searchbox.fill('s');
    await expect(searchbox).toHaveAccessibleDescription('Type at least 2 characters to search.');
    await searchbox.fill(`searchable ${id}`);
    await expect(searchbox).not.toHaveAccessibleDescription('Type at least 2 characters to search.');
    await expect(page.getByRole('row')).toHaveCount(2); // header + the match
    await page.getByLabel('Status', { exact: true }).selectOption('completed');
    await expect(page.getByText('No submissions match these filters.')).toBeVisible();
    await page.getByLabel('Status', { exact: true }).selectOption('all');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const csv = fs.readFileSync(file, 'utf8');
    expect(csv).toContain(`"Searchable ${id}"`);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).not.toContain(`Spammy ${id}`);
  },
);

test('[ADMIN][CONTACTS][A11Y]: at 390 px the tab and the Respond dialog fit, work by keyboard and have no axe violations', async ({
  page,
}) => {
  const id = unique();
  await submitThroughApi(page, { name: `Narrow ${id}` });
  await page.setViewportSize({ width: 390, height: 844 });
  await openTab(page, 'Contacts');
  await expect(page.getByRole('row').filter({ hasText: `Narrow ${id}` })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeViolations(page)).toEqual([]);

  const respond = page.getByRole('button', { name: `Respond to Narrow ${id}` });
  await respond.focus();
  await expect(respond).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Respond to Narrow ${id}` });
  await expect(dialog).toBeVisible();
  // axe cannot run inside the sandboxed HTML preview (it allows no scripts): check with the plain text shown.
  await dialog.getByRole('button', { name: 'Plain text' }).click();
  expect(await axeViolations(page, { include: '[role="dialog"]' })).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(respond).toBeFocused();
});

test('[ADMIN][CONTACTS]: from 320 to 1280 px every row’s status and Respond are on screen, addresses wrap at their dots and hyphens, the preview shows two lines', async ({
  page,
}) => {
  const id = unique();
  const name = `Wide Layout ${id}`;
  await submitThroughApi(page, {
    name,
    email: `procurement.officer.with.a.long.address.${id}@veterans-affairs.agency.gov`,
    company: 'Department of Veterans Affairs',
    phone: '202-555-0143',
    message:
      'We need forty rugged laptops by June with TAA documentation, three years of on-site support and delivery to four regional offices. Please quote.',
  });
  await openTab(page, 'Contacts');
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
  for (const width of [320, 390, 768, 1024, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const seen = await page.evaluate((rowName) => {
      const vw = document.documentElement.clientWidth;
      const offEdge: string[] = [];
      const region = document.querySelector('[aria-label="Contact submissions table"]')!;
      const rows = [...region.querySelectorAll('tbody tr')];
      for (const row of rows) {
        for (const control of row.querySelectorAll('select[aria-label^="Status of"], button[aria-label^="Respond to"]')) {
          const r = control.getBoundingClientRect();
          if (r.width === 0 || r.left < 0 || r.right > vw) offEdge.push(control.getAttribute('aria-label')!);
        }
      }
      const mine = rows.find((r) => r.textContent!.includes(rowName))!;
      const preview = mine.querySelector('p[title]')!;
      const previewLines = Math.round(preview.getBoundingClientRect().height / parseFloat(getComputedStyle(preview).lineHeight));
      // The address as drawn, line by line: each character's line is the top of its box.
      const lines: string[] = [];
      let top: number | null = null;
      const walker = document.createTreeWalker(mine.querySelector('a[href^="mailto:"]')!, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.textContent!.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const y = Math.round(range.getBoundingClientRect().top);
          if (top === null || y > top + 2) lines.push(node.textContent![i]!);
          else lines.push(`${lines.pop()!}${node.textContent![i]!}`);
          top = y;
        }
      }
      return {
        rows: rows.length,
        scrollsSideways: document.documentElement.scrollWidth > vw,
        // Nor past its own card's edge.
        tableFits: region.querySelector('table')!.getBoundingClientRect().right <= region.getBoundingClientRect().right + 1,
        offEdge,
        twoLinesOrMore: previewLines >= 2,
        // Before "@" or a dot, or after a hyphen.
        badBreaks: lines.slice(1).filter((line, i) => !/^[@.]/.test(line) && !lines[i]!.endsWith('-')),
        lines,
      };
    }, name);
    expect(seen.rows, `${width}`).toBeGreaterThan(0);
    expect({ ...seen, lines: undefined }, `${width}: ${seen.lines.join(' | ')}`).toMatchObject({
      scrollsSideways: false,
      tableFits: true,
      offEdge: [],
      twoLinesOrMore: true,
      badBreaks: [],
    });
  }
});

test(
  '[ADMIN][CONTACTS]: pages of 50 with Load more, the search asked of the server, and the counts from the server',
  { tag: '@db' },
  async ({ page }) => {
    const id = unique();
    // 51 held as spam (the honeypot filled), so the Spam view's search has a second page; and one inquiry for the inbox.
    for (let i = 0; i < 51; i++) await submitThroughApi(page, { name: `Pager ${id} ${i}`, website: 'http://bot.example' });
    await submitThroughApi(page, { name: `Counted ${id}` });

    await openTab(page, 'Contacts');
    // The numbers are the counts endpoint's, not a count of the rows the browser holds.
    await expect(async () => {
      const counts = (await (await page.request.get('/api/contact-submissions/counts')).json()) as { new: number; spam: number };
      await expect(page.getByText(counts.new === 1 ? '1 new inquiry' : `${counts.new.toLocaleString('en-US')} new inquiries`)).toBeVisible({
        timeout: 1000,
      });
      await expect(page.getByRole('button', { name: `Spam (${counts.spam.toLocaleString('en-US')})` })).toBeVisible({ timeout: 1000 });
      await expect(page.getByRole('tab', { name: `Contacts (${counts.new} new)` })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });

    await page.getByRole('button', { name: /^Spam/ }).click();
    const search = page.getByRole('searchbox', { name: 'Search submissions' });
    // Typing asks the server once it pauses; until that answer the previous rows stay on screen (and
    // may look the same), so wait for the answer to the whole search before using the list.
    const searched = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/contact-submissions' && new URL(r.url()).searchParams.get('q') === `pager ${id}`,
    );
    await search.pressSequentially(`pager ${id}`, { delay: 20 });
    await searched;
    const rows = page.getByRole('row').filter({ hasText: `Pager ${id}` });
    await expect(rows).toHaveCount(50);
    await expect(page.getByText('Showing 50 of 51 submissions')).toBeVisible();

    const more = page.getByRole('button', { name: 'Load more' });
    await expect(more).toBeEnabled();
    await more.focus();
    await expect(more).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(rows).toHaveCount(51);
    await expect(page.getByText('Showing 51 of 51 submissions')).toBeVisible();
    await expect(more).toHaveCount(0);
    // Newest first: the last one sent is on top, the first one sent comes with the second page.
    await expect(rows.first()).toContainText(`Pager ${id} 50`);
    await expect(rows.last()).toContainText(`Pager ${id} 0`);
    expect(await axeViolations(page)).toEqual([]);

    // A search with a pattern character is taken literally, on the server.
    await search.fill(`pager ${id} 5%`);
    await expect(page.getByText('No submissions match these filters.')).toBeVisible();
    await search.fill(`Counted ${id}`);
    await page.getByRole('button', { name: 'Inbox' }).click();
    await expect(page.getByRole('row').filter({ hasText: `Counted ${id}` })).toHaveCount(1);
    await expect(page.getByText('Showing 1 of 1 submission')).toBeVisible();
  },
);

test('[ADMIN][CONTACT-INFO]: a new contact record becomes the one displayed, and the public contact page follows it', async ({
  page,
  browser,
  baseURL,
}) => {
  const id = unique();
  // A real-looking address: an example one (.example, example.com) is never shown to the public.
  const email = `desk.${id}@sterling-federal.com`;
  const before = (await (await page.request.get('/api/admin/contact-info')).json()) as { id: number; isActive: boolean }[];
  const original = before.find((r) => r.isActive)!;
  await openTab(page, 'Contacts');
  const editor = page.getByRole('region', { name: 'Business Contact Information' });
  await expect(editor.getByText('Only one record can be active at a time', { exact: false })).toBeVisible();
  await editor.getByRole('button', { name: 'Add Contact Information' }).click();
  await editor.getByRole('button', { name: 'Create' }).click();
  await expect(editor.getByText('Valid email is required')).toBeVisible();
  await expect(editor.getByText('Phone is required')).toBeVisible();
  await editor.getByLabel('Email', { exact: true }).fill(email);
  await editor.getByLabel('Phone', { exact: true }).fill('(202) 555-0147');
  await editor.getByLabel('Address', { exact: true }).fill(`1 Capitol Way ${id}\nWashington, DC 20001`);
  await editor.getByLabel('Business hours', { exact: true }).fill('Mon–Fri 8:00 AM – 6:00 PM ET');
  await editor.getByRole('switch', { name: 'Show the phone' }).click();
  await editor.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('Contact information created successfully');
  const card = editor.getByRole('listitem').filter({ hasText: email });
  await expect(card.getByText('Displayed', { exact: true })).toBeVisible();
  await expect(editor.getByRole('listitem').filter({ hasText: 'Displayed' })).toHaveCount(1);
  await expect(editor.getByText('Hidden', { exact: true }).first()).toBeVisible();

  // A visitor's contact page: the live panel at once, and the no-script e-mail after the rebuild.
  const visitor = await browser.newContext({ baseURL });
  try {
    const pub = await visitor.newPage();
    await pub.goto('/contact');
    const panel = pub.getByTestId('contact-info');
    await expect(panel.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
    await expect(panel.getByText(`1 Capitol Way ${id}`)).toBeVisible();
    await expect(panel.getByRole('link', { name: '(202) 555-0147' })).toHaveCount(0);
    await expect
      .poll(async () => (await (await visitor.request.get('/contact')).text()).includes(`mailto:${email}`), { timeout: 60_000 })
      .toBe(true);
  } finally {
    await visitor.close();
  }

  // Leave the seeded record displayed for the other tests.
  const list = (await (await page.request.get('/api/admin/contact-info')).json()) as { id: number; version: number }[];
  const row = list.find((r) => r.id === original.id)!;
  expect(
    (await page.request.patch(`/api/admin/contact-info/${original.id}`, { data: { isActive: true, version: row.version } })).ok(),
  ).toBe(true);
});
