import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'oidc-provider-process.mjs');

/** The Microsoft tenant the stand-in plays (a tenant ID, so the issuer is checked exactly). */
export const TENANT = '4f1c2a7e-0b9d-4e63-9a55-2d7c81e0f3b6';

export type OidcProviderName = 'google' | 'microsoft';

/** A token request the stand-in answered: the ID token's issuer and nonce, or the error. */
export interface TokenEvent {
  provider: OidcProviderName;
  type: 'token' | 'token-error';
  iss?: string;
  nonce?: string;
  forged?: boolean;
  error?: string;
}

/**
 * The OpenID Connect providers of oidc-provider-process.mjs (Google and Microsoft stand-ins) in a child
 * process on 127.0.0.1, and the settings that point this site at them: the operator's own
 * (GOOGLE_DISCOVERY_URL, MICROSOFT_AUTHORITY…), nothing test-only.
 */
export class OidcProviders {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /** `sites`: the SITE_URLs whose callbacks the providers accept. */
  static async start(sites: string[]): Promise<OidcProviders> {
    const settings = {
      sites,
      google: { clientId: 'google-client.apps.test', clientSecret: 'google-client-secret' },
      microsoft: { clientId: 'b2a4c3d1-5e6f-4a7b-8c9d-0e1f2a3b4c5d', clientSecret: 'microsoft-client-secret', tenant: TENANT },
    };
    // Plain Node.js (no loader flags of the test runner), its settings in the environment.
    const child = fork(CHILD, [], {
      execArgv: [],
      env: { ...process.env, OIDC_PROVIDER_SETTINGS: JSON.stringify(settings) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the OIDC provider stand-in exited (${code})`)));
      child.once('message', (msg: { port: number }) => resolve(msg.port));
    });
    return new OidcProviders(child, `http://127.0.0.1:${port}`);
  }

  /** MICROSOFT_AUTHORITY: Microsoft's tokens name the issuer {authority}/{tenant}/v2.0. */
  get microsoftAuthority(): string {
    return `${this.url}/ms`;
  }

  /** The environment that configures both providers (as an operator sets it). */
  env(): Record<string, string> {
    return {
      GOOGLE_CLIENT_ID: 'google-client.apps.test',
      GOOGLE_CLIENT_SECRET: 'google-client-secret',
      GOOGLE_DISCOVERY_URL: `${this.url}/google/.well-known/openid-configuration`,
      MICROSOFT_CLIENT_ID: 'b2a4c3d1-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      MICROSOFT_CLIENT_SECRET: 'microsoft-client-secret',
      MICROSOFT_TENANT_ID: TENANT,
      MICROSOFT_AUTHORITY: this.microsoftAuthority,
    };
  }

  /** Every token request answered so far, in order. */
  async events(): Promise<TokenEvent[]> {
    return (await fetch(`${this.url}/control/events`)).json() as Promise<TokenEvent[]>;
  }

  /** The provider's next ID token carries these claims instead (null: left out), signed again with its real key. */
  async forgeNextIdToken(provider: OidcProviderName, claims: Record<string, unknown>): Promise<void> {
    const res = await fetch(`${this.url}/control/forge`, { method: 'POST', body: JSON.stringify({ provider, claims }) });
    if (res.status !== 204) throw new Error(`forge: ${res.status}`);
  }

  /** The next answer for the site stops at the provider ("Answer held") instead of going there. */
  async holdNextAnswer(): Promise<void> {
    const res = await fetch(`${this.url}/control/hold`, { method: 'POST' });
    if (res.status !== 204) throw new Error(`hold: ${res.status}`);
  }

  /** The held answer: the site's callback URL with its code, state and iss. */
  async heldAnswer(): Promise<URL> {
    const { url } = (await (await fetch(`${this.url}/control/held`)).json()) as { url: string | null };
    if (!url) throw new Error('no answer was held');
    return new URL(url);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
