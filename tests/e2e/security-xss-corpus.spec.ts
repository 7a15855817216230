import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test, unique } from './helpers/admin';
import { PUBLIC_PAGES } from './site-helpers';

/*
 * An XSS corpus stored through every text field an administrator edits and through the contact
 * form, then every public page and every back-office tab opened in Chromium: no script may run
 * (a marker the payloads set, dialogs, page errors and CSP reports are all watched).
 */
const CORPUS = [
  `</script><script>window.__xss=1</script>`,
  `<img src=x onerror="window.__xss=1">`,
  `"><svg/onload=window.__xss=1>`,
  `'"><iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
  `<a href="javascript:window.__xss=1">x</a>`,
  `{{constructor.constructor('window.__xss=1')()}}`,
  `\u2028</style><script>window.__xss=1</script>`,
  `<details open ontoggle=window.__xss=1>`,
] as const;

/** Markdown of an insight's text that tries to become a script, a script address or a handler (src/shared/markdown.ts). */
const MARKDOWN_CORPUS = [
  '[click](javascript:window.__xss=1)',
  '[click](JaVaScRiPt:window.__xss=1)',
  '[click](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)',
  '![x](x" onerror="window.__xss=1)',
  '<https://example.com/" onmouseover="window.__xss=1>',
  '| <img src=x onerror=window.__xss=1> | b |\n|---|---|\n| [c](javascript:window.__xss=1) | d |',
  '> <svg/onload=window.__xss=1>',
  '# <iframe srcdoc="<script>parent.__xss=1</script>">',
].join('\n');

let next = 0;
/** The next payload of the corpus, with a tag naming the field (so a failure says where). */
const payload = (field: string, min = 0) => {
  const text = `${field} ${CORPUS[next++ % CORPUS.length]}`;
  return text.length >= min ? text : `${text} ${'filler text '.repeat(Math.ceil((min - text.length) / 12))}`.trim();
};

type Row = { id: number; version: number; isActive?: boolean } & Record<string, unknown>;

async function getJson<T>(api: APIRequestContext, path: string): Promise<T> {
  const res = await api.get(path);
  expect(res.ok(), path).toBe(true);
  return (await res.json()) as T;
}

async function send(api: APIRequestContext, method: 'post' | 'patch', path: string, data: Record<string, unknown>): Promise<Row> {
  const res = await api[method](path, { data });
  expect(res.ok(), `${method.toUpperCase()} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as Row;
}

/** Singleton sections: the live record is edited and put back afterwards. */
const SECTIONS: { list: string; patch: (id: number) => string; fields: (row: Row) => Record<string, unknown> }[] = [
  {
    list: '/api/content/header',
    patch: (id) => `/api/content/header/${id}`,
    fields: () => ({
      title: payload('header title'),
      subtitle: payload('header subtitle'),
      boxHeading: payload('box heading'),
      boxContent: payload('box'),
    }),
  },
  {
    list: '/api/content/intro',
    patch: (id) => `/api/content/intro/${id}`,
    fields: () => ({ title: payload('intro'), content: payload('intro body') }),
  },
  {
    list: '/api/content/home_cta',
    patch: (id) => `/api/content/${id}`,
    fields: () => ({ title: payload('cta'), content: payload('cta body') }),
  },
  {
    list: '/api/content/services_hero',
    patch: (id) => `/api/content/${id}`,
    fields: () => ({ title: payload('hero'), content: payload('hero body') }),
  },
  {
    list: '/api/content/services_overview',
    patch: (id) => `/api/content/${id}`,
    fields: () => ({ title: payload('overview'), content: payload('overview body'), buttonText: payload('overview button') }),
  },
  {
    list: '/api/content/about',
    patch: (id) => `/api/content/about/${id}`,
    fields: () => ({ title: payload('about'), content: `${payload('about subtitle')}\n\n${payload('about body', 10)}` }),
  },
  {
    list: '/api/content/about_mission',
    patch: (id) => `/api/content/about_mission/${id}`,
    fields: () => ({ content: payload('mission', 10) }),
  },
  {
    list: '/api/content/header-cta',
    patch: (id) => `/api/content/header-cta/${id}`,
    fields: () => ({ buttonText: payload('cta button') }),
  },
  {
    list: '/api/admin/contact-info',
    patch: (id) => `/api/admin/contact-info/${id}`,
    fields: () => ({ phone: payload('phone'), address: payload('address'), businessHours: payload('hours') }),
  },
];

/** Opens a page and reports whatever a stored script could have done there. */
async function watch(page: Page, path: string, open: () => Promise<unknown>) {
  const events: string[] = [];
  const record = (e: string) => events.push(`${path}: ${e}`);
  const onDialog = (d: { message(): string; dismiss(): Promise<void> }) => {
    record(`dialog ${d.message()}`);
    void d.dismiss();
  };
  const onError = (e: Error) => record(`error ${e.message}`);
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) record(`csp ${m.text()}`);
  };
  page.on('dialog', onDialog);
  page.on('pageerror', onError);
  page.on('console', onConsole);
  await open();
  await page.waitForLoadState('load');
  // Toggle-, load- and focus-driven payloads get their chance.
  await page.waitForTimeout(150);
  const ran = await page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0);
  page.off('dialog', onDialog);
  page.off('pageerror', onError);
  page.off('console', onConsole);
  return { ran, events };
}

async function visitor(browser: Browser) {
  return browser.newPage({ storageState: { cookies: [], origins: [] } });
}

test('[SECURITY][XSS]: a corpus stored through every admin text field and the contact form runs nowhere, public or back office', async ({
  page,
  browser,
}) => {
  test.setTimeout(420_000);
  const api = page.request;
  const id = unique();
  const originals: { list: string; path: string; id: number; values: Record<string, unknown> }[] = [];
  const cleanup: string[] = [];
  let stored = 0;
  try {
    for (const section of SECTIONS) {
      const rows = await getJson<Row[]>(api, section.list);
      const row = rows.find((r) => r.isActive !== false) ?? rows[0];
      if (!row) continue;
      const values = section.fields(row);
      originals.push({
        list: section.list,
        path: section.patch(row.id),
        id: row.id,
        values: Object.fromEntries(Object.keys(values).map((k) => [k, row[k] ?? null])),
      });
      await send(api, 'patch', section.patch(row.id), { ...values, version: row.version });
      stored += Object.keys(values).length;
    }
    const created: [string, Record<string, unknown>][] = [
      ['/api/features', { title: payload('feature'), description: payload('feature text'), icon: 'shield', section: 'home' }],
      ['/api/features', { title: payload('why us'), description: payload('why us text', 10), icon: 'fas fa-star', section: 'about' }],
      [
        '/api/services',
        { title: payload('service'), description: payload('service text'), icon: 'shield', detailedDescription: payload('service detail') },
      ],
      [
        '/api/admin/insights',
        {
          title: payload('insight'),
          slug: `xss-corpus-${id}`,
          category: 'research',
          excerpt: payload('excerpt', 10).slice(0, 200),
          content: `${payload('insight body', 60)}\n${MARKDOWN_CORPUS}`,
          authorName: payload('author'),
          authorTitle: payload('author title'),
          tags: [payload('tag').slice(0, 50)],
          isPublished: true,
        },
      ],
      [
        '/api/admin/email-templates',
        {
          name: payload('template'),
          footerText: payload('footer'),
          signatureName: payload('signature'),
          signatureEmail: 'team@example.com',
          signatureWebsite: 'https://example.com',
        },
      ],
      ['/api/admin/saved-replies', { title: payload('saved reply').slice(0, 100), body: payload('saved reply text', 10) }],
    ];
    for (const [path, data] of created) {
      const row = await send(api, 'post', path, data);
      cleanup.push(`${path}/${row.id}`);
      stored += Object.keys(data).length;
    }

    // The contact form, as a visitor submits it.
    const guest = await visitor(browser);
    await guest.goto('/contact');
    await guest.getByLabel('Full Name').fill(payload('visitor name'));
    await guest.getByLabel('Email Address').fill(`xss-${id}@example.com`);
    await guest.getByLabel('Company (Optional)').fill(payload('company'));
    await guest.getByLabel('Phone Number (Optional)').fill(payload('phone'));
    await guest.getByLabel('Message').fill(payload('visitor message', 10));
    await guest.getByRole('button', { name: 'Send Message' }).click();
    await expect(guest.getByRole('heading', { name: 'Thank You!' })).toBeVisible({ timeout: 20_000 });
    stored += 4;

    // Live once the insight page exists (the last write's publish).
    await expect.poll(async () => (await guest.request.get(`/insights/xss-corpus-${id}`)).status(), { timeout: 240_000 }).toBe(200);
    const problems: string[] = [];
    let opened = 0;
    for (const path of [
      ...PUBLIC_PAGES.map((p) => p.path),
      '/insights',
      `/insights/xss-corpus-${id}`,
      `/preview/insights/xss-corpus-${id}`,
    ]) {
      const seen = await watch(guest, path, () => (path.startsWith('/preview') ? page.goto(path) : guest.goto(path)));
      opened++;
      if (seen.ran) problems.push(`${path}: a stored script ran`);
      problems.push(...seen.events);
    }
    await guest.close();

    await page.goto('/admin');
    for (const tab of ['Contacts', 'Visits', 'Homepage', 'Services', 'Documents', 'About', 'Blog', 'Account', 'Templates', 'Company']) {
      const seen = await watch(page, `/admin ${tab}`, async () => {
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
        await page.waitForLoadState('networkidle');
      });
      opened++;
      if (seen.ran) problems.push(`/admin ${tab}: a stored script ran`);
      problems.push(...seen.events);
    }
    // The visitor's text shows, as text, in the list. Filled by a machine faster than a person
    // can, the form is usually held as suspected spam; on a busy machine filling it can take
    // longer, and it lands in the inbox: the view is the one the server chose.
    const mine = (await getJson<{ email: string; isSpam: boolean }[]>(api, `/api/contact-submissions?q=xss-${id}`)).find(
      (s) => s.email === `xss-${id}@example.com`,
    );
    expect(mine, 'the corpus submission is stored').toBeDefined();
    const spam = await watch(page, '/admin Contacts spam', async () => {
      await page.getByRole('tab', { name: 'Contacts' }).click();
      await page.getByRole('button', { name: mine!.isSpam ? /^Spam/ : /^Inbox$/ }).click();
      await expect(page.getByText(`xss-${id}@example.com`).first()).toBeVisible();
    });
    opened++;
    if (spam.ran) problems.push('/admin Contacts spam: a stored script ran');
    problems.push(...spam.events);

    const summary = `${stored} fields stored (${CORPUS.length} payloads), ${opened} pages and tabs opened, scripts run or page errors: ${problems.length}`;
    test.info().annotations.push({ type: 'xss corpus', description: summary });
    console.log(`XSS corpus: ${summary}`);
    expect(problems).toEqual([]);
  } finally {
    for (const path of cleanup) await api.delete(path);
    for (const { list, path, id: rowId, values } of originals) {
      const rows = await getJson<Row[]>(api, list);
      const version = rows.find((r) => r.id === rowId)?.version;
      const res = await api.patch(path, { data: { ...values, version } });
      expect(res.ok(), `restoring ${path}: ${await res.text()}`).toBe(true);
    }
  }
});
