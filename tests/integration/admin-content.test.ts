import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contentBlocks, headerContent, headerCta } from '#server/db/schema/index.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let t: AdminTestContext;
// Starting the server, migrating and hashing two passwords can be slow on a busy machine.
beforeAll(async () => {
  t = await startAdminContext();
}, 180_000);
afterAll(() => t?.s.close());

const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const blocks = (section: 'intro' | 'about' | 'about_mission' | 'services_hero' | 'home_cta') =>
  t.s.db.select().from(contentBlocks).where(eq(contentBlocks.section, section));

describe('[API][ADMIN][CONTENT] access', () => {
  it.each([
    ['GET', '/api/content/services_hero'],
    ['GET', '/api/content/header-cta'],
    ['POST', '/api/content'],
    ['POST', '/api/content/intro'],
    ['POST', '/api/content/header'],
    ['POST', '/api/content/header-cta'],
    ['PATCH', '/api/content/1'],
    ['PATCH', '/api/content/intro/1'],
    ['PATCH', '/api/content/header/1'],
    ['PATCH', '/api/content/header-cta/1'],
    ['GET', '/api/admin/audit'],
  ])('%s %s: 401 signed out, 403 for a user account', async (method, path) => {
    const body = method === 'GET' ? undefined : { section: 'intro', title: 'Hacked', content: 'Hacked content' };
    expect((await t.s.request(path, { method, ...(body ? { json: body } : {}) })).status).toBe(401);
    expect((await t.as(t.user, method, path, body)).status).toBe(403);
  });

  it('nothing was changed by the refused calls', async () => {
    const rows = await t.s.db.select().from(contentBlocks);
    expect(rows.some((r) => r.title === 'Hacked')).toBe(false);
    expect(await t.s.db.select().from(auditLog)).toHaveLength(0);
  });

  it('the public active endpoint still answers without a session', async () => {
    expect((await t.s.request('/api/content/intro/active')).status).toBe(200);
  });
});

describe('[API][ADMIN][CONTENT] generic blocks', () => {
  it('GET /api/content/{section} lists the versions, the live one first', async () => {
    const { status, body } = await json(await t.as(t.admin, 'GET', '/api/content/services_hero'));
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ section: 'services_hero', isActive: true, active: true, version: 1 });
  });

  it('unknown section → 404', async () => {
    expect((await t.as(t.admin, 'GET', '/api/content/nonsense')).status).toBe(404);
  });

  it('PATCH /api/content/{id} updates the services hero, increments the version, shows on /active', async () => {
    const [hero] = await blocks('services_hero');
    const { status, body } = await json(await t.as(t.admin, 'PATCH', `/api/content/${hero!.id}`, { title: 'New hero', version: 1 }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ title: 'New hero', content: hero!.content, version: 2 });
    expect((await (await t.s.request('/api/content/services_hero/active')).json()).title).toBe('New hero');
  });

  it('a stale version → 409 with the message, nothing changes', async () => {
    const [hero] = await blocks('services_hero');
    const { status, body } = await json(await t.as(t.admin, 'PATCH', `/api/content/${hero!.id}`, { title: 'Stale', version: 1 }));
    expect(status).toBe(409);
    expect(body.message).toBe('This item was changed by someone else. Reload to get the latest version.');
    expect((await blocks('services_hero'))[0]).toMatchObject({ title: 'New hero', version: 2 });
  });

  it('POST /api/content creates a home_cta block from `active` and `section`', async () => {
    const { status, body } = await json(
      await t.as(t.admin, 'POST', '/api/content', {
        section: 'home_cta',
        title: 'Talk to us',
        content: 'We reply within a day.',
        active: true,
      }),
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({ section: 'home_cta', isActive: true, version: 1 });
    expect((await (await t.s.request('/api/content/home_cta/active')).json()).title).toBe('Talk to us');
  });

  it('POST /api/content without a section → 400', async () => {
    const { status, body } = await json(await t.as(t.admin, 'POST', '/api/content', { title: 'x', content: 'y' }));
    expect(status).toBe(400);
    expect(body.message).toBe('Section is required');
  });

  it('intro: p/div/span tags and non-breaking spaces are stripped on save', async () => {
    const [intro] = await blocks('intro');
    const { body } = await json(
      await t.as(t.admin, 'PATCH', `/api/content/intro/${intro!.id}`, {
        content: '<p class="x">Hello&nbsp;world</p><div><span>again</span></div> <strong>kept</strong>',
        version: intro!.version,
      }),
    );
    expect(body.content).toBe('Hello worldagain <strong>kept</strong>');
  });

  it('intro: content that is only markup is empty → 400', async () => {
    const { status, body } = await json(await t.as(t.admin, 'POST', '/api/content/intro', { title: 'T', content: '<p>&nbsp;</p>' }));
    expect(status).toBe(400);
    expect(body.message).toBe('Content is required');
  });

  it('a block of another section is not reachable through /api/content/{section}/{id}', async () => {
    const [hero] = await blocks('services_hero');
    expect((await t.as(t.admin, 'PATCH', `/api/content/about/${hero!.id}`, { title: 'x' })).status).toBe(404);
  });

  it('about: subtitle and body are stored joined by a blank line', async () => {
    const { status, body } = await json(
      await t.as(t.admin, 'POST', '/api/content/about', {
        title: 'About Us',
        subtitle: 'Short line.',
        content: 'The longer body text.',
        isActive: true,
      }),
    );
    expect(status).toBe(201);
    expect(body.content).toBe('Short line.\n\nThe longer body text.');
    const patched = await json(await t.as(t.admin, 'PATCH', `/api/content/about/${body.id}`, { subtitle: 'New line.', version: 1 }));
    expect(patched.body.content).toBe('New line.\n\nThe longer body text.');
  });

  it('mission: title defaults to Our Mission', async () => {
    const { status, body } = await json(await t.as(t.admin, 'POST', '/api/content/about_mission', { content: 'To serve agencies well.' }));
    expect(status).toBe(201);
    expect(body.title).toBe('Our Mission');
  });

  it.each([
    ['/api/content/intro', { content: 'Some content' }, 'Title is required'],
    ['/api/content/intro', { title: 'Intro' }, 'Content is required'],
    ['/api/content/about', { title: '', content: 'Long enough content' }, 'Title is required'],
    ['/api/content/about', { title: 'About', content: 'short' }, 'Content must be at least 10 characters'],
    ['/api/content/about_mission', { content: 'short' }, 'Mission statement must be at least 10 characters'],
    ['/api/content/services_hero', { title: 'Hero' }, 'Description is required'],
    ['/api/content/services_hero', { content: 'Description' }, 'Title is required'],
    ['/api/content/home_cta', { title: 'CTA' }, 'Content is required'],
    [
      '/api/content/services_hero',
      { title: 'Hero', content: 'D', backgroundImage: 'javascript:alert(1)' },
      'URL must be a relative path or start with http:// or https://',
    ],
    ['/api/content/intro', { title: 'x'.repeat(201), content: 'c' }, 'Must be at most 200 characters'],
  ])('POST %s %o → 400 %s, nothing stored', async (path, body, message) => {
    const before = (await t.s.db.select().from(contentBlocks)).length;
    const res = await json(await t.as(t.admin, 'POST', path, body));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await t.s.db.select().from(contentBlocks)).length).toBe(before);
  });
});

describe('[API][ADMIN][HEADER]', () => {
  const header = {
    title: 'A new hero title',
    subtitle: 'A subtitle',
    backgroundImage: 'https://images.example.com/bg.jpg',
    logoLight: '/images/logo.svg',
    logoDark: '/images/logo-dark.svg',
  };

  it('creates a header version and lists it', async () => {
    const { status, body } = await json(await t.as(t.admin, 'POST', '/api/content/header', header));
    expect(status).toBe(201);
    expect(body).toMatchObject({ ...header, boxHeading: null, isActive: true, version: 1 });
    const list = await (await t.as(t.admin, 'GET', '/api/content/header')).json();
    expect(list[0].id).toBe(body.id);
  });

  it('PATCH updates, 409 when stale', async () => {
    const [row] = await t.s.db.select().from(headerContent).where(eq(headerContent.title, header.title));
    const ok = await json(await t.as(t.admin, 'PATCH', `/api/content/header/${row!.id}`, { boxHeading: 'Box', version: row!.version }));
    expect(ok.body).toMatchObject({ boxHeading: 'Box', title: header.title, version: row!.version + 1 });
    const stale = await t.as(t.admin, 'PATCH', `/api/content/header/${row!.id}`, { title: 'Lost', version: row!.version });
    expect(stale.status).toBe(409);
    const [after] = await t.s.db.select().from(headerContent).where(eq(headerContent.id, row!.id));
    expect(after!.title).toBe(header.title);
  });

  it.each([
    ['title', 'Title is required'],
    ['subtitle', 'Subtitle is required'],
    ['backgroundImage', 'Background image URL is required'],
    ['logoLight', 'Light mode logo URL is required'],
    ['logoDark', 'Dark mode logo URL is required'],
  ])('missing %s → 400 %s', async (field, message) => {
    const res = await json(await t.as(t.admin, 'POST', '/api/content/header', { ...header, [field]: '' }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('a logo URL with a javascript: scheme is refused', async () => {
    const res = await json(await t.as(t.admin, 'POST', '/api/content/header', { ...header, logoLight: 'javascript:alert(1)' }));
    expect(res.status).toBe(400);
  });
});

describe('[API][ADMIN][HEADER-CTA] one active version', () => {
  it('creating an active version deactivates the others in the same transaction', async () => {
    const { status, body } = await json(
      await t.as(t.admin, 'POST', '/api/content/header-cta', { buttonText: 'Call us', buttonLink: 'tel:+1 555 0100', isActive: true }),
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({ buttonStyle: 'primary', isVisible: true, isActive: true });
    const active = await t.s.db.select().from(headerCta).where(eq(headerCta.isActive, true));
    expect(active.map((r) => r.id)).toEqual([body.id]);
    expect((await (await t.s.request('/api/content/header-cta/active')).json()).buttonText).toBe('Call us');
  });

  it('activating an older version by PATCH switches the active one', async () => {
    const [old] = await t.s.db
      .select()
      .from(headerCta)
      .where(and(eq(headerCta.isActive, false)));
    const res = await json(await t.as(t.admin, 'PATCH', `/api/content/header-cta/${old!.id}`, { isActive: true, version: old!.version }));
    expect(res.status).toBe(200);
    const active = await t.s.db.select().from(headerCta).where(eq(headerCta.isActive, true));
    expect(active.map((r) => r.id)).toEqual([old!.id]);
  });

  it.each([
    [{ buttonText: '' }, 'Button text is required'],
    [{ buttonLink: '' }, 'Button link is required'],
    [{ buttonLink: 'javascript:alert(1)' }, 'Link must be a relative path, an http(s) URL, mailto: or tel:'],
    [{ buttonLink: '//evil.example' }, 'Link must be a relative path, an http(s) URL, mailto: or tel:'],
    [{ buttonStyle: 'neon' }, 'Choose a button style'],
  ])('%o → 400 %s', async (change, message) => {
    const before = await t.s.db.select().from(headerCta);
    const res = await json(
      await t.as(t.admin, 'POST', '/api/content/header-cta', { buttonText: 'Go', buttonLink: '/contact', isActive: true, ...change }),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await t.s.db.select().from(headerCta)).toEqual(before);
  });

  it.each(['https://example.com/x', '/contact', 'mailto:sales@example.com', 'tel:+15550100', '#contact-form'])(
    'link %s is accepted',
    async (link) => {
      const res = await t.as(t.admin, 'POST', '/api/content/header-cta', { buttonText: 'Go', buttonLink: link });
      expect(res.status).toBe(201);
    },
  );
});

describe('[API][ADMIN][AUDIT]', () => {
  it('GET /api/admin/audit lists the latest changes with who and what', async () => {
    const { status, body } = await json(await t.as(t.admin, 'GET', '/api/admin/audit?limit=5'));
    expect(status).toBe(200);
    expect(body).toHaveLength(5);
    expect(body[0]).toMatchObject({ actorName: 'admin', entity: 'header-cta', action: 'create' });
    const heroEdit = (await t.s.db.select().from(auditLog).where(eq(auditLog.entity, 'content:services_hero')))[0]!;
    expect(heroEdit.before).toMatchObject({ title: expect.any(String) });
    expect(heroEdit.after).toEqual({ title: 'New hero' });
  });
});
