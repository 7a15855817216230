import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openTab, test, unique } from './helpers/admin';
import { axeViolations } from './axe';
import { e2eOutbox } from './servers.mjs';

// A send, a mail delivery and the back office on a 2-core machine: triple the timeout.
test.slow();

/** A UTC day `days` from today, YYYY-MM-DD (what a date input's value holds). */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const OUTBOX = e2eOutbox();
/** The subjects of the outbox's messages that contain a text (headers unfolded, soft line breaks joined). */
function subjectsWith(text: string): string[] {
  if (!fs.existsSync(OUTBOX)) return [];
  return fs
    .readdirSync(OUTBOX)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => fs.readFileSync(path.join(OUTBOX, f), 'utf8').replace(/=\r?\n/g, ''))
    .filter((eml) => eml.includes(text))
    .map((eml) => /^Subject: (.*)$/m.exec(eml.replace(/\r?\n[ \t]+/g, ' '))?.[1] ?? '');
}

async function fillRequired(page: Page, name: string, message: string) {
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email Address').fill('dana.smith@va.gov');
  await page.getByLabel('Message').fill(message);
}

test.describe('[SITE][CONTACT] buyer fields', () => {
  test('three optional fields after the five, labelled, in keyboard order, axe clean', async ({ page }) => {
    await page.goto('/contact');
    const buyer = page.getByLabel('I am… (Optional)');
    await expect(buyer).toHaveJSProperty('tagName', 'SELECT');
    await expect(buyer.getByRole('option')).toHaveText(['Choose one', 'Government buyer', 'Manufacturer', 'Consulting client', 'Other']);
    await expect(page.getByLabel('Solicitation or RFQ Number (Optional)')).toHaveAttribute('maxlength', '100');
    const due = page.getByLabel('Response Due Date (Optional)');
    await expect(due).toHaveAttribute('type', 'date');
    // A choice and a date have no length to limit.
    await expect(buyer).not.toHaveAttribute('maxlength');
    await expect(due).not.toHaveAttribute('maxlength');
    // Tab order follows the layout: Message, I am…, the due date, the RFQ number, Send.
    await page.getByLabel('Message').focus();
    await page.keyboard.press('Tab');
    await expect(buyer).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(due).toBeFocused();
    // The date input may stop once per part (month, day, year): Tab on until focus leaves it.
    const rfq = page.getByLabel('Solicitation or RFQ Number (Optional)');
    for (let i = 0; i < 4 && (await due.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(rfq).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Send Message' })).toBeFocused();
    // Optional: the spec's three messages only, for an empty form.
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('alert').filter({ hasText: '3 fields need attention' })).toHaveCount(1);
    await expect(buyer).not.toHaveAttribute('aria-invalid', 'true');
    expect(await axeViolations(page, { include: 'form', wcag: true })).toEqual([]);
  });

  test('a due date out of range gets its inline message, and nothing is sent', async ({ page }) => {
    const sent: string[] = [];
    page.on('request', (r) => r.url().endsWith('/api/contact') && r.method() === 'POST' && sent.push(r.url()));
    await page.goto('/contact');
    await fillRequired(page, 'Dana Smith', 'Forty laptops for three clinics.');
    const due = page.getByLabel('Response Due Date (Optional)');
    const year = new Date().getUTCFullYear();
    await due.fill(`${year + 11}-01-01`);
    await page.getByRole('button', { name: 'Send Message' }).click();
    const outOfRange = 'Please enter a due date from last year to ten years ahead';
    await expect(page.getByText(outOfRange, { exact: true })).toBeVisible();
    await expect(due).toBeFocused();
    await expect(due).toHaveAttribute('aria-invalid', 'true');
    await expect(due).toHaveAccessibleDescription(outOfRange);
    await expect(page.getByRole('alert').filter({ hasText: `One field needs attention: ${outOfRange}.` })).toHaveCount(1);
    expect(await axeViolations(page, { include: 'form', wcag: true })).toEqual([]);

    // Revalidates on change: a date in range clears it.
    await due.fill(`${year - 2}-12-31`);
    await expect(page.getByText(outOfRange, { exact: true })).toBeVisible();
    await due.fill(dayFromToday(10));
    await expect(page.getByText(outOfRange, { exact: true })).toHaveCount(0);
    await expect(due).not.toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);
  });

  test('a buyer type that is not one of the four gets its inline message', async ({ page }) => {
    // Only a changed page can offer another value; the form's own check (the server's too) refuses it.
    await page.goto('/contact');
    await fillRequired(page, 'Dana Smith', 'Forty laptops for three clinics.');
    const buyer = page.getByLabel('I am… (Optional)');
    await buyer.evaluate((el: HTMLSelectElement) => (el.options[1]!.value = 'agency'));
    await buyer.selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Please choose one of the listed options', { exact: true })).toBeVisible();
    await expect(buyer).toBeFocused();
    await expect(buyer).toHaveAccessibleDescription('Please choose one of the listed options');
    await buyer.selectOption({ label: 'Manufacturer' });
    await expect(page.getByText('Please choose one of the listed options', { exact: true })).toHaveCount(0);
  });

  test('a solicitation past 100 characters gets its inline message', async ({ page }) => {
    // The input stops typing at 100; without that limit (an old browser, a script) the check still holds.
    await page.goto('/contact');
    await fillRequired(page, 'Dana Smith', 'Forty laptops for three clinics.');
    const rfq = page.getByLabel('Solicitation or RFQ Number (Optional)');
    await rfq.evaluate((el) => el.removeAttribute('maxlength'));
    await rfq.fill('9'.repeat(101));
    await expect(page.getByText('Solicitation or RFQ number must be at most 100 characters', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Send Message' }).click();
    // The form's own check catches it first, inline.
    await expect(page.getByText('Solicitation or RFQ number must be at most 100 characters', { exact: true })).toBeVisible();
    await expect(rfq).toBeFocused();
    await expect(rfq).toHaveValue('9'.repeat(101));
    await rfq.fill('9'.repeat(100));
    await expect(page.getByText('Solicitation or RFQ number must be at most 100 characters', { exact: true })).toHaveCount(0);
  });

  test('sent with the three fields, they reach the staff e-mail subject and the inbox card', async ({ page }) => {
    const id = unique();
    const name = `Dana Smith ${id}`;
    const due = dayFromToday(45);
    await page.clock.install();
    await page.goto('/contact');
    await fillRequired(page, name, `Forty TAA-compliant laptops, ref ${id}.`);
    await page.getByLabel('I am… (Optional)').selectOption({ label: 'Government buyer' });
    await page.getByLabel('Solicitation or RFQ Number (Optional)').fill(`36C10X26Q${id}`);
    await page.getByLabel('Response Due Date (Optional)').fill(due);
    // A person takes longer than the form's minimum fill time; quicker sends are held as spam. The
    // page's clock is moved on instead of waiting.
    await page.clock.fastForward(3000);
    const answer = page.waitForResponse('/api/contact');
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect((await answer).status()).toBe(201);
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();

    // The staff's notification, written to the local outbox by the mail worker.
    const [y, m, d] = due.split('-').map(Number) as [number, number, number];
    const month = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short' });
    const dueInSubject = `${month} ${d}${y === new Date().getUTCFullYear() ? '' : `, ${y}`}`;
    await expect
      .poll(() => subjectsWith(`ref ${id}`), { timeout: 20_000 })
      .toEqual([`New inquiry from ${name}: RFQ 36C10X26Q${id}, due ${dueInSubject}`]);

    await openTab(page, 'Contacts');
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toBeVisible();
    const shown = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    });
    await expect(row.getByText(`Government buyer · RFQ 36C10X26Q${id} · Due ${shown}`)).toBeVisible();
    expect(await axeViolations(page, { include: '[aria-label="Contact submissions table"]', wcag: true })).toEqual([]);
  });
});
