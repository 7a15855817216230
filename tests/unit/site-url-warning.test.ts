import { describe, expect, it } from 'vitest';
import { siteUrlWarning } from '#server/preflight.ts';

describe('[START] production without SITE_URL is warned about at start', () => {
  it('warns in production when SITE_URL is unset or blank, naming the address it will assume', () => {
    for (const SITE_URL of [undefined, '', '  ']) {
      expect(siteUrlWarning({ NODE_ENV: 'production', SITE_URL }, 8080)).toBe(
        'SITE_URL is not set: the site takes its address to be http://localhost:8080, so links in e-mails point there and signing in from any other address is refused as cross-site. Set SITE_URL to the address visitors use (https://…).',
      );
    }
  });

  it('says nothing with SITE_URL set, or outside production', () => {
    expect(siteUrlWarning({ NODE_ENV: 'production', SITE_URL: 'https://www.example.com' }, 8080)).toBeNull();
    expect(siteUrlWarning({ SITE_URL: undefined }, 4321)).toBeNull();
    expect(siteUrlWarning({ NODE_ENV: 'development' }, 4321)).toBeNull();
  });
});
