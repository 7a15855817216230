import type { BetterAuthPlugin } from 'better-auth';
import { verifyProviderIdToken, type OAuthProvider } from 'better-auth/oauth2';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { microsoft } from 'better-auth/social-providers';
import type { Env } from '../env';

/*
 * The third-party sign-in providers. Both are OpenID Connect providers whose ID token is checked
 * before anyone is signed in: its signature against the issuer's published keys, its issuer, its
 * audience (our client ID), its age, and its nonce against the one this sign-in sent (kept in the
 * state with the PKCE verifier). better-auth's built-in google and microsoft providers only decode
 * the ID token the token endpoint returns (trusting the TLS connection) and send no nonce; Google's
 * also has its endpoints written in. So Google is configured by discovery through better-auth's
 * genericOAuth, and Microsoft is better-auth's provider (its authority option moves every endpoint)
 * with the nonce and the ID-token check added.
 */

/**
 * Sign in with Google: the discovery document (GOOGLE_DISCOVERY_URL) gives the endpoints, the
 * issuer and the keys; genericOAuth sends a nonce and verifies the ID token against them (and the
 * `iss` of the answer, RFC 9207). The account is the ID token's `sub`, as with the built-in provider.
 */
function googleProvider(e: Env, clientId: string, clientSecret: string): BetterAuthPlugin {
  return genericOAuth({
    config: [
      {
        providerId: 'google',
        name: 'Google',
        discoveryUrl: e.GOOGLE_DISCOVERY_URL,
        requireIdTokenVerification: true,
        clientId,
        clientSecret,
        scopes: ['openid', 'email', 'profile'],
        disableImplicitSignUp: !e.ALLOW_REGISTRATION,
      },
    ],
  });
}

/**
 * A provider whose redirect flow is bound to a verified ID token: the authorization request carries
 * the nonce better-auth keeps in the state, and the ID token must pass the provider's own
 * verification (keys, issuer, audience, algorithm, age, its claim checks) with that nonce before
 * its claims are read.
 */
function withVerifiedIdToken(provider: OAuthProvider): OAuthProvider {
  return {
    ...provider,
    requiresIdTokenNonce: true,
    async createAuthorizationURL(data) {
      const url = await provider.createAuthorizationURL(data);
      if (data.idTokenNonce) url.searchParams.set('nonce', data.idTokenNonce);
      return url;
    },
    async getUserInfo({ expectedIdTokenNonce, ...tokens }) {
      if (!tokens.idToken || !expectedIdTokenNonce) return null;
      if (!(await verifyProviderIdToken(provider, tokens.idToken, expectedIdTokenNonce))) return null;
      return provider.getUserInfo(tokens);
    },
  };
}

/**
 * Sign in with Microsoft: every endpoint, the keys and the expected issuer follow
 * MICROSOFT_AUTHORITY and MICROSOFT_TENANT_ID (`common` unset: any tenant, each token bound to its
 * own). No profile photo is fetched from Microsoft Graph (the back office shows none).
 */
function microsoftProvider(e: Env, clientId: string, clientSecret: string): BetterAuthPlugin {
  const provider = withVerifiedIdToken(
    microsoft({
      clientId,
      clientSecret,
      tenantId: e.MICROSOFT_TENANT_ID ?? 'common',
      authority: e.MICROSOFT_AUTHORITY,
      disableProfilePhoto: true,
    }),
  );
  // Read from the provider itself (better-auth sets it so for its socialProviders option).
  provider.disableImplicitSignUp = !e.ALLOW_REGISTRATION;
  return {
    id: 'microsoft-sign-in',
    init: (ctx) => ({ context: { socialProviders: [provider, ...ctx.socialProviders] } }),
  };
}

/** The configured providers' plugins (a provider needs its client ID and secret). */
export function providerPlugins(e: Env): BetterAuthPlugin[] {
  const plugins: BetterAuthPlugin[] = [];
  if (e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) plugins.push(googleProvider(e, e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET));
  if (e.MICROSOFT_CLIENT_ID && e.MICROSOFT_CLIENT_SECRET)
    plugins.push(microsoftProvider(e, e.MICROSOFT_CLIENT_ID, e.MICROSOFT_CLIENT_SECRET));
  return plugins;
}
