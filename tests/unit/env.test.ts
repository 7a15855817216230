import { afterEach, describe, expect, it } from 'vitest';
import { env, resetEnvCache } from '#server/env.ts';
import { dataDir, projectRoot } from '#server/paths.ts';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

/** env() as a start with exactly these variables would see it. */
function envWith(vars: Record<string, string>) {
  process.env = { ...vars };
  resetEnvCache();
  return env();
}

describe('[OPS][ENV] settings mean what they say', () => {
  it('an empty or blank value means unset, for every variable', () => {
    const e = envWith({
      ADMIN_PASSWORD: '',
      AUTH_SECRET: '',
      SITE_URL: '',
      REBUILD_WEBHOOK_URL: ' ',
      ADMIN_EMAIL: '',
      ADMIN_USERNAME: '',
      LOG_LEVEL: '',
      DATABASE_URL: '',
      SMTP_URL: '',
      PORT: '',
      SESSION_IDLE_SECONDS: '',
      TRUST_PROXY: '',
      SPAM_RETENTION_DAYS: '',
      DATA_DIR: '',
    });
    for (const unset of [
      'ADMIN_PASSWORD',
      'AUTH_SECRET',
      'REBUILD_WEBHOOK_URL',
      'ADMIN_EMAIL',
      'ADMIN_USERNAME',
      'DATABASE_URL',
      'SMTP_URL',
    ] as const)
      expect(e[unset], unset).toBeUndefined();
    expect(e).toMatchObject({
      LOG_LEVEL: 'info',
      PORT: 4321,
      SITE_URL: 'http://localhost:4321',
      SESSION_IDLE_SECONDS: 1800,
      TRUST_PROXY: false,
      DATA_DIR: './data',
    });
    expect(dataDir()).toBe(`${projectRoot()}/data`);
  });

  it('PORT without SITE_URL makes the site address http://localhost:$PORT; SITE_URL wins when set', () => {
    expect(envWith({ PORT: '5005' }).SITE_URL).toBe('http://localhost:5005');
    expect(envWith({ PORT: '5005', SITE_URL: 'https://www.harbor-federal.com' }).SITE_URL).toBe('https://www.harbor-federal.com');
  });

  it('a value that is set and wrong still stops the start, naming the variable', () => {
    expect(() => envWith({ SITE_URL: 'not a url' })).toThrow(/Invalid environment configuration:\n {2}SITE_URL/);
    expect(() => envWith({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => envWith({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY.*"yes" is not an IP address or a CIDR range/s);
  });
});
