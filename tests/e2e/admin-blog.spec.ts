import type { Page } from '@playwright/test';
import { expect, openTab, test, toast, unique } from './helpers/admin';
import { axeViolations } from './axe';

// Several saves and refetches per test on a 2-core machine shared with rebuilds: triple the timeout.
test.slow();

/** Blog → New Insight: its dialog, the text, the toolbar and preview, and a way out that discards. */
async function newInsightEditor(page: Page) {
  await openTab(page, 'Blog');
  await page.getByRole('button', { name: 'New Insight' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Insight' });
  return {
    dialog,
    content: dialog.getByLabel('Content', { exact: true }),
    toolbar: dialog.getByRole('toolbar', { name: 'Formatting' }),
    preview: dialog.getByRole('region', { name: 'Preview' }),
    discard: async () => {
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      const confirm = page.getByRole('alertdialog');
      if (await confirm.isVisible()) await confirm.getByRole('button', { name: /Discard/ }).click();
    },
  };
}

test(
  '[ADMIN][BLOG]: a new insight: validation, slug from the title, publish stamps a date, edit, delete',
  { tag: '@db' },
  async ({ page }) => {
    await openTab(page, 'Blog');
    await page.getByRole('button', { name: 'New Insight' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Insight' });
    await dialog.getByRole('button', { name: 'Create Insight' }).click();
    for (const message of [
      'Title is required',
      'Slug is required',
      'Summary must be at least 10 characters',
      'Content must be at least 50 characters',
      'Author name is required',
      'Author title is required',
    ]) {
      await expect(dialog.getByText(message, { exact: true })).toBeVisible();
    }
    const id = unique();
    const title = `Supplier Vetting ${id}`;
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await expect(dialog.getByLabel('Slug')).toHaveValue(`supplier-vetting-${id}`);
    await dialog.getByLabel('Slug').fill(`Supplier Vetting ${id}!`);
    await expect(dialog.getByLabel('Slug')).toHaveValue(`supplier-vetting-${id}`);
    await dialog.getByLabel('Category').selectOption('case_studies');
    await dialog.getByLabel('Summary').fill('How we vet suppliers.');
    await dialog
      .getByLabel('Content', { exact: true })
      .fill('Every supplier is checked for TAA and BAA compliance before anything ships to an agency.');
    await expect(dialog.getByLabel('Read time (minutes)')).toHaveValue('5');
    await dialog.getByLabel('Author name').fill('Jane Doe');
    await dialog.getByLabel('Author title').fill('Principal');
    await dialog.getByLabel('Tags (comma-separated)').fill('vetting, , compliance ');
    await dialog.getByRole('button', { name: 'Create Insight' }).click();
    await expect(toast(page)).toContainText('Insight created');

    const row = page.getByRole('row').filter({ hasText: title });
    await expect(row.getByRole('cell', { name: 'Case Studies' })).toBeVisible();
    await expect(row.getByText('Not published')).toBeVisible();
    await expect(row.getByRole('link', { name: `Preview ${title} (opens in a new tab)` })).toHaveAttribute(
      'href',
      `/preview/insights/supplier-vetting-${id}`,
    );

    await row.getByRole('switch', { name: `Published: ${title}` }).click();
    await expect(toast(page)).toContainText('Status updated');
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
    await expect(row.getByText(today)).toBeVisible();
    await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'true');

    await row.getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Insight' });
    await expect(edit.getByLabel('Tags (comma-separated)')).toHaveValue('vetting, compliance');
    await edit.getByLabel('Author name').fill('John Roe');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Insight updated');
    await expect(row.getByText('John Roe')).toBeVisible();
    await expect(row.getByText(today)).toBeVisible();

    await row.getByRole('button', { name: `Delete ${title}` }).click();
    await page.getByRole('alertdialog', { name: 'Delete insight?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page)).toContainText('Insight deleted');
    await expect(row).toHaveCount(0);
  },
);

test('[ADMIN][BLOG]: the text editor writes Markdown with its toolbar and previews it as the article page will show it; nothing in it runs', async ({
  page,
}) => {
  const { content, toolbar, preview, discard } = await newInsightEditor(page);

  await content.fill('Compliance matters');
  // The last word selected, then Bold: the marks around it, the word still selected.
  await content.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(11, 18));
  await toolbar.getByRole('button', { name: 'Bold' }).click();
  await expect(content).toHaveValue('Compliance **matters**');
  await expect(content).toBeFocused();
  expect(await content.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe('matters');
  await expect(preview.locator('strong')).toHaveText('matters');

  // Keyboard only: a new line, the Heading button, then typing the heading.
  await content.press('End');
  await content.press('Enter');
  await content.pressSequentially('Checklist');
  await toolbar.getByRole('button', { name: 'Heading' }).focus();
  await page.keyboard.press('Enter');
  await expect(content).toBeFocused();
  await expect(content).toHaveValue('Compliance **matters**\n## Checklist');
  await expect(preview.getByRole('heading', { level: 2, name: 'Checklist' })).toBeVisible();

  await content.press('End');
  await content.press('Enter');
  await content.pressSequentially('SAM');
  await content.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.length - 3, el.value.length));
  await toolbar.getByRole('button', { name: 'Link' }).click();
  // The caret waits for the address between the parentheses.
  await expect(content).toBeFocused();
  expect(await content.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart))).toBe(')');
  await page.keyboard.type('https://sam.gov');
  await expect(preview.getByRole('link', { name: 'SAM' })).toHaveAttribute('href', 'https://sam.gov');
  await expect(preview.getByRole('link', { name: 'SAM' })).toHaveAttribute('rel', 'noopener');

  // What tries to run stays text or is no link at all.
  await content.fill(
    '[click](javascript:window.__xss=1)\n<img src=x onerror="window.__xss=1">\n<script>window.__xss=1</script>\n![x](x" onerror="window.__xss=1)',
  );
  await expect(preview).toContainText('<script>window.__xss=1</script>');
  await expect(preview.locator('img, script, a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  await discard();
});

/**
 * A text and its selection in one string: `|` is the caret, `[…]` a selection (the test texts
 * hold neither character otherwise, but for the link's own brackets, written `\[` and `\]`).
 */
function parseMarked(marked: string): { value: string; start: number; end: number } {
  const tokens = marked.split(/(\\\[|\\\]|\||\[|\])/).filter((t) => t !== '');
  let value = '';
  let start = -1;
  let end = -1;
  for (const t of tokens) {
    if (t === '|') start = end = value.length;
    else if (t === '[') start = value.length;
    else if (t === ']') end = value.length;
    else value += t === '\\[' ? '[' : t === '\\]' ? ']' : t;
  }
  return { value, start, end };
}
const marked = (value: string, start: number, end: number) => {
  const esc = (s: string) => s.replace(/\[/g, '\\[').replace(/\]/g, '\\]');
  return start === end
    ? esc(value.slice(0, start)) + '|' + esc(value.slice(start))
    : esc(value.slice(0, start)) + '[' + esc(value.slice(start, end)) + ']' + esc(value.slice(end));
};

/** Each toolbar button in the five cases: an empty line, mid-line, a selection, several lines (and pressed again), then undo. */
const TOOLBAR_CASES: Record<string, [before: string, after: string][]> = {
  Heading: [
    ['Intro\n|', 'Intro\n## |'],
    ['Sam|pling', '## Sam|pling'],
    ['Intro\nSam[pling]', 'Intro\n## Sam[pling]'],
    ['[One\n\nTwo]', '[## One\n\n## Two]'],
    ['[## One\n\n## Two]', '[One\n\nTwo]'],
  ],
  Bold: [
    ['|', '**|**'],
    ['ab|cd', 'ab**|**cd'],
    ['a [bc] d', 'a **[bc]** d'],
    ['[a\nb]', '**[a\nb]**'],
    ['a **[bc]** d', 'a [bc] d'],
  ],
  Italic: [
    ['|', '_|_'],
    ['ab|cd', 'ab_|_cd'],
    ['a [bc] d', 'a _[bc]_ d'],
    ['[a\nb]', '_[a\nb]_'],
    ['a _[bc]_ d', 'a [bc] d'],
  ],
  Code: [
    ['|', '`|`'],
    ['ab|cd', 'ab`|`cd'],
    ['run [npm test]', 'run `[npm test]`'],
    ['[a\nb]', '`[a\nb]`'],
    ['run `[npm test]`', 'run [npm test]'],
  ],
  'Bulleted list': [
    ['Intro\n|', 'Intro\n- |'],
    ['Sam|pling', '- Sam|pling'],
    ['Sam[pling]', '- Sam[pling]'],
    ['[One\nTwo\n\nThree]', '[- One\n- Two\n\n- Three]'],
    ['[- One\n- Two]', '[One\nTwo]'],
  ],
  'Numbered list': [
    ['Intro\n|', 'Intro\n1. |'],
    ['Sam|pling', '1. Sam|pling'],
    ['Sam[pling]', '1. Sam[pling]'],
    ['[One\nTwo\nThree]', '[1. One\n2. Two\n3. Three]'],
    ['[1. One\n2. Two]', '[One\nTwo]'],
  ],
  Quote: [
    ['Intro\n|', 'Intro\n> |'],
    ['Sam|pling', '> Sam|pling'],
    ['Sam[pling]', '> Sam[pling]'],
    ['[One\nTwo]', '[> One\n> Two]'],
    ['[> One\n> Two]', '[One\nTwo]'],
  ],
  Link: [
    ['|', '\\[|\\]()'],
    ['ab|cd', 'ab\\[|\\]()cd'],
    ['see [SAM]', 'see \\[SAM\\](|)'],
    ['[a\nb]', '\\[a\nb\\](|)'],
  ],
};

test('[ADMIN][BLOG][EDITOR]: every toolbar button keeps every keystroke: on an empty line, mid-line, a selection, several lines, pressed again, and one undo step each', async ({
  page,
}) => {
  const { content, toolbar, discard } = await newInsightEditor(page);
  const state = () => content.evaluate((el: HTMLTextAreaElement) => [el.value, el.selectionStart, el.selectionEnd] as const);
  const setTo = async (notation: string) => {
    const { value, start, end } = parseMarked(notation);
    // Typed over all of it as a paste would (React hears an input event), then the selection: one round trip.
    await content.evaluate(
      (el: HTMLTextAreaElement, [text, s, e]) => {
        el.focus();
        el.select();
        document.execCommand('insertText', false, text as string);
        el.setSelectionRange(s as number, e as number);
      },
      [value, start, end] as const,
    );
  };
  for (const [name, cases] of Object.entries(TOOLBAR_CASES)) {
    for (const [before, after] of cases) {
      await setTo(before);
      await toolbar.getByRole('button', { name, exact: true }).click();
      const [value, start, end] = await state();
      expect(marked(value, start, end), `${name} on ${JSON.stringify(before)}`).toBe(after);
      await expect(content).toBeFocused();
    }
    // Undo: one Ctrl+Z takes back the whole action, and the text is as it was.
    await setTo('Sam|pling');
    await page.keyboard.type('X');
    await toolbar.getByRole('button', { name, exact: true }).click();
    await page.keyboard.press('Control+z');
    expect((await state())[0], `${name} undone`).toBe('SamXpling');
  }
  // The next key typed after a mark lands after it: nothing is selected to be typed over.
  await setTo('Intro\n|');
  await toolbar.getByRole('button', { name: 'Heading' }).click();
  await page.keyboard.type('Scope');
  await expect(content).toHaveValue('Intro\n## Scope');
  // Ctrl+B, Ctrl+I and Ctrl+K do what Bold, Italic and Link do.
  for (const [key, after] of [
    ['b', 'a **[bc]** d'],
    ['i', 'a _[bc]_ d'],
    ['k', 'a \\[bc\\](|) d'],
  ] as const) {
    await setTo('a [bc] d');
    await content.press(`Control+${key}`);
    const [value, start, end] = await state();
    expect(marked(value, start, end), `Ctrl+${key}`).toBe(after);
  }
  await discard();
});

test('[ADMIN][BLOG][EDITOR]: Image puts an uploaded picture with its alternative text at the caret; another site’s image is refused and explained', async ({
  page,
}) => {
  const { dialog, content, toolbar, preview, discard } = await newInsightEditor(page);
  await content.fill('Intro paragraph.\nClosing line.');
  await content.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(16, 16));

  await toolbar.getByRole('button', { name: 'Image', exact: true }).click();
  const insert = page.getByRole('dialog', { name: 'Insert an image' });
  await insert.getByRole('button', { name: 'Insert image' }).click();
  await expect(insert.getByText('Choose an image from the library, or upload one')).toBeVisible();
  const { default: sharp } = await import('sharp');
  const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#1d4f7a' } })
    .png()
    .toBuffer();
  await insert.getByLabel('Image file').setInputFiles({ name: `dock-${unique()}.png`, mimeType: 'image/png', buffer: png });
  await expect(insert.getByRole('button', { name: 'Remove image' })).toBeVisible();
  await insert.getByRole('button', { name: 'Insert image' }).click();
  await expect(insert.getByText('Describe the image, or mark it as decorative')).toBeVisible();
  await expect(insert.getByLabel(/^Alternative text/)).toBeFocused();
  expect(await axeViolations(page, { include: '[role="dialog"]:last-of-type', wcag: true })).toEqual([]);
  await insert.getByLabel(/^Alternative text/).fill('Pallets at the loading dock');
  await insert.getByRole('button', { name: 'Insert image' }).click();
  await expect(insert).toBeHidden();
  // In its own paragraph where the caret was, the caret after it, the focus back in the text.
  await expect(content).toBeFocused();
  const value = await content.inputValue();
  expect(value).toMatch(
    /^Intro paragraph\.\n\n!\[Pallets at the loading dock\]\(\/uploads\/images\/[0-9a-f]{32}\.png\)\n\nClosing line\.$/,
  );
  expect(await content.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart))).toBe('\n\nClosing line.');
  await expect(preview.getByRole('img', { name: 'Pallets at the loading dock' })).toBeVisible();

  // Another site's picture: a link in the article, and the editor says why.
  await content.fill('![Chart](https://example.com/chart.png)');
  await expect(dialog.getByText(/An image from another website is shown in the article as a link/)).toBeVisible();
  await expect(preview.getByRole('link', { name: 'Chart' })).toHaveAttribute('href', 'https://example.com/chart.png');
  await expect(preview.locator('img')).toHaveCount(0);
  await discard();
});
