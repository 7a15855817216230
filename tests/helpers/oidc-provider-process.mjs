/**
 * Stand-ins for Google's and Microsoft's sign-in: two OpenID Connect providers (the certified
 * `oidc-provider`) in this one process, on 127.0.0.1 and a port the kernel picks, so that provider
 * sign-in is tested against real authorization, token and key endpoints with nothing sent to the
 * internet. Started by oidc-provider.ts with its settings as JSON in OIDC_PROVIDER_SETTINGS; sends `{ port }` over
 * IPC once it listens.
 *
 * - Google at `/google`: its discovery document is `/google/.well-known/openid-configuration`.
 * - Microsoft at `/ms/{tenant}` with Microsoft's paths (`/oauth2/v2.0/authorize`, `/oauth2/v2.0/token`,
 *   `/discovery/v2.0/keys`), issuer `/ms/{tenant}/v2.0`, and the `tid` and `oid` claims.
 *
 * Anyone may sign in as any e-mail address: the sign-in page asks for it, consent is given at once.
 * Test controls (never part of a real provider):
 * - `GET /control/events`: each token request answered, `{ provider, type: 'token', iss, nonce }`
 *   or `{ provider, type: 'token-error', error }`, in order;
 * - `POST /control/forge` `{ provider, claims }`: that provider's next ID token carries these claims
 *   instead (a claim given as null is left out), signed again with its real key (a provider, or
 *   someone holding its key, lying);
 * - `POST /control/hold`: the next answer for a site (its redirect to `/api/auth/callback/…`) is not
 *   sent there: the page says "Answer held" and `GET /control/held` gives its URL `{ url }`, for a
 *   test to send on, changed or not (a browser stops at no redirect a test could catch).
 */
import crypto from 'node:crypto';
import http from 'node:http';

// Its warnings are about production use (Node.js 22 advised, state kept in memory): true and
// expected of a test stand-in, so they are not printed. Anything else it says is.
const warn = console.warn;
console.warn = (...args) => {
  if (!String(args[0]).includes('oidc-provider WARNING')) warn(...args);
};
const { default: Provider } = await import('oidc-provider');

const settings = JSON.parse(process.env.OIDC_PROVIDER_SETTINGS ?? '{}');
/** @type {{ sites: string[], google: { clientId: string, clientSecret: string }, microsoft: { clientId: string, clientSecret: string, tenant: string } }} */
const { sites, google, microsoft } = settings;

const events = [];
const forged = new Map();
let hold = false;
let held = null;

const digest = (text, length) => crypto.createHash('sha256').update(text).digest('hex').slice(0, length);
const b64url = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function signingKey(kid) {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, jwk: { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

/** An RS256 JWT of these claims, signed with the key (the header names its kid). */
function signJwt(claims, key) {
  const input = `${b64url({ alg: 'RS256', typ: 'JWT', kid: key.jwk.kid })}.${b64url(claims)}`;
  return `${input}.${crypto.sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

const decodeJwt = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

function html(res, status, body) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Provider sign-in</title></head><body>${body}</body></html>`);
}

async function readForm(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

/**
 * One provider mounted at `mount`. `claims(email)` are its account's claims beyond `email` and
 * `email_verified`.
 */
function makeProvider({ name, issuer, mount, client, routes, claims, extraClaims }) {
  const key = signingKey(`${name}-key`);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: sites.map((site) => `${site}/api/auth/callback/${name}`),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [key.jwk] },
    cookies: {
      keys: [crypto.randomBytes(32).toString('hex')],
      names: { session: `${name}_session`, interaction: `${name}_interaction`, resume: `${name}_resume` },
    },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    claims: { openid: ['sub', ...extraClaims], email: ['email', 'email_verified'], profile: ['name'] },
    // The claims in the ID token as Google and Microsoft put them there.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${mount}/interaction/${interaction.uid}` },
    routes,
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        claims: async () => ({ sub: digest(`${name}:${id}`, 24), email: id, email_verified: true, name: id.split('@')[0], ...claims(id) }),
      };
    },
  });
  provider.on('grant.success', (ctx) => {
    const body = ctx.body;
    if (!body?.id_token) return;
    const lie = forged.get(name);
    if (lie) {
      forged.delete(name);
      const claims = { ...decodeJwt(body.id_token), ...lie };
      // A claim forged as null is left out of the token altogether.
      for (const [name, value] of Object.entries(lie)) if (value === null) delete claims[name];
      body.id_token = signJwt(claims, key);
    }
    const { iss, nonce } = decodeJwt(body.id_token);
    events.push({ provider: name, type: 'token', iss, nonce, forged: Boolean(lie) });
  });
  provider.on('grant.error', (_ctx, error) => events.push({ provider: name, type: 'token-error', error: error.error }));

  const callback = provider.callback();
  /** The provider's own sign-in page: the e-mail address, then consent given at once. */
  async function interaction(req, res, post) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!post) {
        return html(
          res,
          200,
          `<h1>Sign in to ${name}</h1><form method="post"><label>E-mail <input name="email" type="email" autocomplete="off"></label> <button type="submit">Continue</button></form>`,
        );
      }
      const email = ((await readForm(req)).get('email') ?? '').trim().toLowerCase();
      if (!email) return html(res, 400, 'An e-mail address is needed');
      return provider.interactionFinished(req, res, { login: { accountId: email } }, { mergeWithLastSubmission: false });
    }
    const { missingOIDCScope, missingOIDCClaims } = details.prompt.details;
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  return {
    mount,
    async handle(req, res) {
      const url = new URL(req.url, 'http://provider');
      const rest = url.pathname.slice(mount.length);
      if (/^\/interaction\/[^/]+$/.test(rest)) return interaction(req, res, req.method === 'POST');
      holdAnswer(res);
      // As when mounted in an app: the provider sees its own paths and builds its URLs on `mount`.
      req.originalUrl = req.url;
      req.url = req.url.slice(mount.length) || '/';
      return callback(req, res);
    },
  };
}

/** While a hold is asked for, the next redirect to a site's callback ends here instead. */
function holdAnswer(res) {
  const end = res.end.bind(res);
  res.end = (...args) => {
    const location = res.getHeader('location');
    const toSite = typeof location === 'string' && sites.some((site) => location.startsWith(`${site}/api/auth/callback/`));
    if (!hold || !toSite) return end(...args);
    hold = false;
    held = location;
    const body = '<!doctype html><html lang="en"><head><title>Answer held</title></head><body><p>Answer held</p></body></html>';
    res.statusCode = 200;
    res.removeHeader('location');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('content-length', Buffer.byteLength(body));
    return end(body);
  };
}

const server = http.createServer(async (req, res) => {
  try {
    const { pathname } = new URL(req.url, 'http://provider');
    if (pathname === '/control/events') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(events));
    }
    if (pathname === '/control/hold' && req.method === 'POST') {
      hold = true;
      held = null;
      res.writeHead(204);
      return res.end();
    }
    if (pathname === '/control/held') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ url: held }));
    }
    if (pathname === '/control/forge' && req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += chunk;
      const { provider, claims } = JSON.parse(text);
      forged.set(provider, claims);
      res.writeHead(204);
      return res.end();
    }
    const target = providers.find((p) => pathname === p.mount || pathname.startsWith(`${p.mount}/`));
    if (!target) {
      res.writeHead(404);
      return res.end();
    }
    await target.handle(req, res);
  } catch (error) {
    console.error('oidc-provider stand-in:', error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});

/** @type {{ mount: string, handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> }[]} */
let providers = [];

server.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const tenant = microsoft.tenant;
  providers = [
    makeProvider({
      name: 'google',
      issuer: `${base}/google`,
      mount: '/google',
      client: google,
      routes: {},
      extraClaims: [],
      claims: () => ({}),
    }),
    makeProvider({
      name: 'microsoft',
      issuer: `${base}/ms/${tenant}/v2.0`,
      mount: `/ms/${tenant}`,
      client: microsoft,
      routes: { authorization: '/oauth2/v2.0/authorize', token: '/oauth2/v2.0/token', jwks: '/discovery/v2.0/keys' },
      extraClaims: ['tid', 'oid'],
      claims: (email) => ({ tid: tenant, oid: crypto.createHash('sha256').update(email).digest('hex').slice(0, 32) }),
    }),
  ];
  process.send?.({ port: server.address().port });
});

process.on('disconnect', () => process.exit(0));
