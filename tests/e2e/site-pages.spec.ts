import http from 'node:http';
import { apiSignIn } from './auth-helpers';
import { ADMIN, expect, test } from './fixtures';
import { NOT_FOUND_PAGES, PUBLIC_PAGES } from './site-helpers';

test.describe('[SITE][PAGES]', () => {
  for (const p of PUBLIC_PAGES) {
    test(`${p.path}: 200, one h1, unique title, description, canonical, OG/Twitter, JSON-LD`, async ({ page, baseURL }) => {
      const res = await page.goto(p.path);
      expect(res?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
      const canonical = await page.locator('link[rel=canonical]').getAttribute('href');
      expect(canonical).toBe(new URL(p.path, baseURL).toString());
      expect(await page.locator('meta[name=description]').getAttribute('content')).toMatch(/.{50,}/);
      for (const sel of [
        'meta[property="og:title"]',
        'meta[property="og:description"]',
        'meta[property="og:url"]',
        'meta[name="twitter:card"]',
      ]) {
        await expect(page.locator(sel)).toHaveCount(1);
      }
      const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
      const types = ld.map((t) => JSON.parse(t)['@type']);
      expect(types).toContain(p.path === '/' ? 'Organization' : 'BreadcrumbList');
      await expect(page.locator('link[rel=icon]')).toHaveAttribute('href', '/favicon.svg');
    });
  }

  test('titles and descriptions are unique across pages', async ({ request }) => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const p of PUBLIC_PAGES) {
      const html = await (await request.get(p.path)).text();
      titles.add(/<title>([^<]*)<\/title>/.exec(html)![1]!);
      descriptions.add(/<meta name="description" content="([^"]*)"/.exec(html)![1]!);
    }
    expect(titles.size).toBe(PUBLIC_PAGES.length);
    expect(descriptions.size).toBe(PUBLIC_PAGES.length);
  });

  for (const p of NOT_FOUND_PAGES) {
    test(`${p.path}: 404 with '${p.h1}'`, async ({ page }) => {
      const res = await page.goto(p.path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
    });
  }

  test('odd requests a browser never sends get a 4xx, never a 5xx', async ({ baseURL }) => {
    // Raw requests: fetch and Playwright would resolve the dot segments themselves.
    const raw = (method: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(baseURL!);
        const body = method === 'GET' ? '' : '{}';
        const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
        const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(body);
      });
    for (const path of ['/', '/contact', '/insights', '/auth', '/admin']) {
      for (const method of ['POST', 'PUT', 'DELETE'])
        expect({ method, path, status: await raw(method, path) }).toEqual({ method, path, status: 405 });
    }
    for (const path of [
      '/..',
      '/.',
      '/about/..',
      '/insights/..',
      '/services/../contact',
      '/insights/%2e%2e',
      '/404',
      '/insights/404',
      '/404.html',
    ]) {
      expect({ path, status: await raw('GET', path) }).toEqual({ path, status: 404 });
    }
  });

  test('Insight Not Found offers the way back', async ({ page }) => {
    await page.goto('/insights/missing-one');
    await expect(page.getByText("The insight you're looking for doesn't exist or has been moved.")).toBeVisible();
    await page.getByRole('link', { name: 'Back to Insights' }).click();
    await expect(page).toHaveURL(/\/insights$/);
  });
});

test.describe('[SITE][CONTENT]', () => {
  test('about: title and subtitle from the about content, mission, Why Choose Us cards', async ({ page, request }) => {
    const about = await (await request.get('/api/content/about/active')).json();
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(about.title);
    const subtitle = about.content.split('\n\n')[0];
    await expect(page.getByText(subtitle, { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Our Mission' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Why Choose Us' })).toBeVisible();
    for (const t of ['Certified Experts', 'Industry Expertise', 'Results-Driven'])
      await expect(page.getByRole('heading', { name: t })).toBeVisible();
  });

  test('services: hero from services_hero, Request Quick Quote, three category cards, closing block', async ({ page, request }) => {
    const hero = await (await request.get('/api/content/services_hero/active')).json();
    const overview = await (await request.get('/api/content/services_overview/active')).json();
    await page.goto('/services');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.title);
    await expect(page.getByRole('link', { name: 'Request Quick Quote' })).toHaveAttribute('href', '/contact');
    for (const href of ['/services/consulting', '/services/federal', '/services/partners']) {
      await expect(page.locator(`main a[href="${href}"]`)).toHaveCount(1);
    }
    await expect(page.getByRole('heading', { name: overview.title })).toBeVisible();
    await expect(page.getByRole('link', { name: overview.buttonText })).toHaveAttribute('href', '/contact');
  });

  test('consulting: active services by displayOrder with images, #services anchor, contact link', async ({ page, request }) => {
    const services = (await (await request.get('/api/services')).json()) as { title: string; isActive: boolean }[];
    await page.goto('/services/consulting');
    const titles = await page.locator('#services h3').allTextContents();
    expect(titles).toEqual(services.filter((s) => s.isActive).map((s) => s.title));
    for (const img of await page.locator('#services img').all()) {
      await expect(img).toHaveAttribute('width', /\d+/);
      await expect(img).toHaveAttribute('height', /\d+/);
    }
    await page.getByRole('link', { name: 'Explore Services' }).click();
    await expect(page).toHaveURL(/#services$/);
  });

  test('federal: profile, six NAICS codes, compliance table, procurement desk', async ({ page }) => {
    await page.goto('/services/federal');
    await expect(page.getByText('Certified Small Woman-Owned Business')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Core Procurement Profile' })).toBeVisible();
    await expect(page.getByText('WOSB / Small Business', { exact: true }).first()).toBeVisible();
    // A new install has no UEI or CAGE yet: the page leaves them out rather than show a placeholder.
    await expect(page.getByText(/PLACEHOLDER/)).toHaveCount(0);
    await expect(page.getByText('UEI', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'UEI and CAGE on request' })).toHaveAttribute('href', '/contact');
    for (const code of ['423430', '443142', '334111', '334310', '333924', '333241'])
      await expect(page.getByText(code, { exact: true })).toBeVisible();
    for (const item of [
      'FAR Part 12/13 Compliant',
      'TAA / BAA Compliant',
      'ITAR-Free Equipment Available',
      'VA & DLA Requirements Met',
      'Country of Origin Certification Available Upon Request',
    ]) {
      await expect(page.getByRole('rowheader', { name: item })).toBeVisible();
    }
    // A new install has no real e-mail yet (the seeded one is an example): no button rather than a dead address.
    await expect(page.getByRole('link', { name: 'Email Procurement Desk' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Request Quick Quote' }).click();
    await expect(page).toHaveURL(/#contact-form$/);
    // No uploaded capability document: the button opens the statement written from the site's data.
    await expect(page.getByRole('link', { name: /^Download Capability Statement/ }).first()).toHaveAttribute(
      'href',
      '/capability-statement.pdf',
    );
    const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t));
    const org = ld.find((d) => d['@type'] === 'Organization');
    expect(org.naics).toContain('333241');
    expect(org.identifier).toBeUndefined();
  });

  test('partners: sections, how-we-work anchor, and the missing onboarding kit alert', async ({ page }) => {
    await page.goto('/services/partners');
    await expect(page.getByText('Manufacturing Partners', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Contact Partners Team' })).toHaveAttribute('href', '/contact');
    for (const h of [
      'Why Manufacturers Partner',
      'What We Source From You',
      'Compliance Shield',
      'How We Work Together',
      'Partner With Us',
    ]) {
      await expect(page.getByRole('heading', { name: h })).toBeVisible();
    }
    for (const b of [
      'Federal Market Access',
      'Procurement Navigation',
      'Bid Participation',
      'No Exclusivity Required',
      'Pre-Configured Offerings',
    ]) {
      await expect(page.getByRole('heading', { name: b })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Contact Supplier Team' })).toHaveAttribute('href', '/contact');
    await page.getByRole('link', { name: 'Learn How We Work' }).click();
    await expect(page).toHaveURL(/#how-we-work$/);
    const messages: string[] = [];
    page.on('dialog', (d) => {
      messages.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'OEM Onboarding Kit' }).last().click();
    await expect.poll(() => messages).toEqual(['OEM Onboarding Kit not currently available. Please contact us directly.']);
  });

  test('capabilities: hero, the generated statement as the first document, closing call to action', async ({ page }) => {
    await page.goto('/capabilities');
    await expect(page.getByRole('link', { name: 'Request Quick Quote' }).first()).toHaveAttribute('href', '/contact');
    await expect(page.getByRole('heading', { name: 'Capability Documents' })).toBeVisible();
    const card = page.getByTestId('document-card').first();
    await expect(card.getByRole('heading', { name: 'Capability Statement' })).toBeVisible();
    await expect(card.getByRole('link', { name: /^View PDF/ })).toHaveAttribute('href', '/capability-statement.pdf');
    await expect(page.getByRole('heading', { name: 'Ready to Get Started?' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'View All Services' })).toHaveAttribute('href', '/services');
  });

  test('insights: hero, search box, call to action and four link cards', async ({ page }) => {
    await page.goto('/insights');
    await expect(page.getByRole('searchbox', { name: 'Search insights' })).toBeVisible();
    await expect(page.locator('main a[href="/contact"]').first()).toBeVisible();
    const cards = page.getByRole('heading', { name: 'Popular Topics' }).locator('xpath=following-sibling::ul[1]/li');
    await expect(cards).toHaveCount(4);
    await expect(cards.last().getByRole('link')).toHaveAttribute('href', '/services');
  });

  test('privacy: the policy statements', async ({ page }) => {
    await page.goto('/privacy');
    for (const h of [
      'Information We Collect',
      'How We Use Your Information',
      'How We Store Your Information',
      'Third-Party Services',
      'Your Rights',
      'Your Consent',
    ]) {
      await expect(page.getByRole('heading', { name: h })).toBeVisible();
    }
    await expect(page.getByText(/name and email address/)).toBeVisible();
    await expect(page.getByText('By using this website, you consent to this privacy policy.')).toBeVisible();
  });

  test('footer: tagline, year, rights reserved, privacy link', async ({ page }) => {
    await page.goto('/about');
    const footer = page.locator('footer');
    await expect(footer).toContainText('Federal procurement, supplier partnerships and project execution');
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
    await expect(footer).toContainText('All rights reserved.');
    await expect(footer.getByRole('link', { name: 'Privacy Policy' }).first()).toHaveAttribute('href', '/privacy');
  });
});

test.describe('[SITE][SEO] sitemap, robots, RSS', () => {
  test('sitemap.xml lists every public page with absolute URLs', async ({ request, baseURL }) => {
    const res = await request.get('/sitemap.xml');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('xml');
    const xml = await res.text();
    for (const p of PUBLIC_PAGES) expect(xml).toContain(`<loc>${new URL(p.path, baseURL).toString()}</loc>`);
    expect(xml).not.toContain('/admin');
  });

  test('hidden until launched: robots.txt refuses every crawler and every page says noindex; launched: robots.txt allows the site, hides admin and API, and names the sitemap', async ({
    request,
    baseURL,
    playwright,
  }) => {
    const admin = await playwright.request.newContext({ baseURL });
    await apiSignIn(admin, ADMIN.username, ADMIN.password);
    const launch = async (launched: boolean) =>
      expect((await admin.put('/api/admin/site-launch', { data: { launched } })).status()).toBe(200);
    try {
      // A new install (this suite's server) starts hidden; said again in case a spec before launched it.
      await launch(false);
      await expect(async () => expect(await (await request.get('/robots.txt')).text()).toBe('User-agent: *\nDisallow: /\n')).toPass({
        timeout: 60_000,
      });
      await expect(async () => {
        const about = await request.get('/about');
        expect(about.headers()['x-robots-tag']).toBe('noindex');
        expect(await about.text()).toContain('<meta name="robots" content="noindex">');
      }).toPass({ timeout: 60_000 });

      await launch(true);
      await expect(async () => expect(await (await request.get('/robots.txt')).text()).toContain('Sitemap:')).toPass({ timeout: 60_000 });
      const text = await (await request.get('/robots.txt')).text();
      expect(text).toContain('Disallow: /admin');
      expect(text).toContain('Disallow: /api/');
      expect(text).toContain(`Sitemap: ${new URL('/sitemap.xml', baseURL).toString()}`);
      await expect(async () => {
        const about = await request.get('/about');
        expect(about.headers()['x-robots-tag']).toBeUndefined();
        expect(await about.text()).not.toContain('name="robots"');
      }).toPass({ timeout: 60_000 });
    } finally {
      await launch(false);
      await admin.dispose();
    }
  });

  test('rss.xml is an RSS 2.0 channel of the insights', async ({ request, baseURL }) => {
    const res = await request.get('/rss.xml');
    expect(res.status()).toBe(200);
    const xml = await res.text();
    expect(xml).toContain('<rss version="2.0"');
    expect(xml).toContain(`<link>${new URL('/insights', baseURL).toString()}</link>`);
  });
});
