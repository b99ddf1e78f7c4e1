// A throwaway OpenID provider for elicit's tests and examples: `oidc-provider` (an OpenID
// Certified implementation) on loopback, configured as an MCP server's authorization server.
// Started by `.ci/oidc`, which installs it, gives it its settings in the environment and stops
// it; see CONTRIBUTING.md ("The OpenID provider for the authorization tests").
//
// TEST ONLY, never for production: anyone who types `alice` or `bob` is signed in (no password),
// consent is granted without asking, registration is open to anyone, every key and record is in
// memory and lost at exit, and `POST /test/rotate-key` changes the signing key for whoever asks.
//
// What it serves, on the issuer `http://127.0.0.1:PORT` (printed once it listens):
// - discovery (`/.well-known/openid-configuration`, also at RFC 8414's
//   `/.well-known/oauth-authorization-server`) and the JWKS (`/jwks`);
// - open dynamic client registration (RFC 7591), as MCP clients register;
// - PKCE (S256) required of every client, public or confidential;
// - resource indicators (RFC 8707): an access token asked for with `resource=URL` (any http or
//   https URL) is a JWT (RFC 9068, `typ: at+jwt`, RS256) whose `aud` is that URL, with the
//   scopes asked for among the resource scopes (ELICIT_OIDC_SCOPES); a request must ask for at
//   least one (else access_denied, "no scope was granted" in the log);
// - opaque access tokens instead, for a client registered with
//   `"elicit_access_token_format": "opaque"`: introspection (RFC 7662, for confidential clients)
//   and revocation (RFC 7009) take those only (oidc-provider refuses a JWT access token there
//   with 400 unsupported_token_type: a JWT is verified by its signature);
// - the login page: a form with a user name (alice or bob), then consent granted at once;
// - the page client: a confidential client (client_secret_basic) whose redirect URIs are
//   `http://127.0.0.1/login/callback` and `http://localhost/login/callback` on any port (a
//   native client's loopback redirect, RFC 8252 section 7.3), so a server on a port chosen at
//   start can use it without registering;
// - `POST /test/rotate-key`: a new RSA signing key, with a new `kid`, becomes the current one (the
//   old keys stay in the JWKS, so tokens already issued still verify); answers
//   `{"kid": NEW, "kids": [ALL]}`. Every client, session and token survives it.
//
// Environment (all set by `.ci/oidc`): ELICIT_OIDC_PAGE_CLIENT_ID, ELICIT_OIDC_PAGE_CLIENT_SECRET
// (required); ELICIT_OIDC_PAGE_REDIRECT_URIS (space-separated, replaces the two above);
// ELICIT_OIDC_SCOPES (the resource scopes, default `mcp:tools mcp:admin`);
// ELICIT_OIDC_ACCESS_TOKEN_TTL (seconds, default 600); ELICIT_OIDC_TIME_LIMIT (seconds, default
// 1800: the provider exits by itself then). It listens on a free port it prints.

import * as crypto from 'node:crypto';
import * as http from 'node:http';

import Provider, { errors } from 'oidc-provider';

const USERS = {
  alice: { name: 'Alice Example', email: 'alice@example.test' },
  bob: { name: 'Bob Example', email: 'bob@example.test' },
};
const HOST = '127.0.0.1';
// A client registered with `"elicit_access_token_format": "opaque"` gets opaque access tokens,
// the ones introspection is for: oidc-provider introspects and revokes no JWT access token.
const TOKEN_FORMAT_METADATA = 'elicit_access_token_format';
const MAX_FORM_BYTES = 16 * 1024;

function fail(message) {
  console.error(`oidc-provider: ${message}`);
  process.exit(2);
}

function required(name) {
  const value = process.env[name];
  if (!value) fail(`${name} must be set (.ci/oidc sets it)`);
  return value;
}

function seconds(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^[1-9][0-9]*$/.test(text)) fail(`${name} must be a whole number of seconds, not "${text}"`);
  return Number(text);
}

function words(name, fallback) {
  const list = (process.env[name] ?? fallback).split(/\s+/).filter(Boolean);
  if (list.length === 0) fail(`${name} names nothing`);
  return list;
}

const settings = {
  pageClientId: required('ELICIT_OIDC_PAGE_CLIENT_ID'),
  pageClientSecret: required('ELICIT_OIDC_PAGE_CLIENT_SECRET'),
  pageRedirectUris: words(
    'ELICIT_OIDC_PAGE_REDIRECT_URIS',
    'http://127.0.0.1/login/callback http://localhost/login/callback',
  ),
  resourceScopes: words('ELICIT_OIDC_SCOPES', 'mcp:tools mcp:admin'),
  accessTokenTtl: seconds('ELICIT_OIDC_ACCESS_TOKEN_TTL', 600),
  timeLimit: seconds('ELICIT_OIDC_TIME_LIMIT', 1800),
};

// --- Storage shared by every Provider instance of this process ----------------------------------
// A key rotation builds a new Provider (oidc-provider reads its keys once, at construction) over
// this same storage, so clients, sessions, grants and tokens outlive the rotation, as they would
// with several instances of a real deployment over one database.

const records = new Map(); // `${model}:${id}` -> { payload, expiresAt }
const grantMembers = new Map(); // grantId -> Set of record keys

class SharedMemoryAdapter {
  constructor(model) {
    this.model = model;
  }

  key(id) {
    return `${this.model}:${id}`;
  }

  async upsert(id, payload, expiresIn) {
    const key = this.key(id);
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : Infinity;
    records.set(key, { payload: structuredClone(payload), expiresAt });
    if (payload.grantId) {
      if (!grantMembers.has(payload.grantId)) grantMembers.set(payload.grantId, new Set());
      grantMembers.get(payload.grantId).add(key);
    }
  }

  async find(id) {
    return this.read(this.key(id));
  }

  read(key) {
    const record = records.get(key);
    if (!record) return undefined;
    if (record.expiresAt <= Date.now()) {
      records.delete(key);
      return undefined;
    }
    return structuredClone(record.payload);
  }

  async findByUid(uid) {
    for (const [key, record] of records) {
      if (key.startsWith(`${this.model}:`) && record.payload.uid === uid) return this.read(key);
    }
    return undefined;
  }

  async findByUserCode(userCode) {
    for (const [key, record] of records) {
      if (key.startsWith(`${this.model}:`) && record.payload.userCode === userCode) {
        return this.read(key);
      }
    }
    return undefined;
  }

  async consume(id) {
    const record = records.get(this.key(id));
    if (record) record.payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id) {
    records.delete(this.key(id));
  }

  async revokeByGrantId(grantId) {
    for (const key of grantMembers.get(grantId) ?? []) records.delete(key);
    grantMembers.delete(grantId);
  }
}

// --- Signing keys ------------------------------------------------------------------------------

// A new RS256 signing key as a private JWK; its kid is its RFC 7638 thumbprint.
function newSigningKey() {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  const thumbprint = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  const kid = crypto.createHash('sha256').update(thumbprint).digest('base64url');
  return { ...jwk, kid, alg: 'RS256', use: 'sig' };
}

// The newest key first: it signs. The others stay published so their tokens still verify.
let signingKeys = [newSigningKey()];
// Cookies stay valid across a rotation: the same keys for every Provider instance.
const cookieKeys = [crypto.randomBytes(32).toString('base64url')];

// --- The provider ------------------------------------------------------------------------------

function findAccount(_ctx, id) {
  const user = USERS[id];
  if (!user) return undefined;
  return {
    accountId: id,
    async claims() {
      return {
        sub: id,
        name: user.name,
        preferred_username: id,
        email: user.email,
        email_verified: true,
      };
    },
  };
}

function resourceServer(currentKid) {
  return async (_ctx, indicator, client) => {
    let url;
    try {
      url = new URL(indicator);
    } catch {
      throw new errors.InvalidTarget(`resource "${indicator}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new errors.InvalidTarget(`resource "${indicator}" is neither http nor https`);
    }
    const format = client.metadata()[TOKEN_FORMAT_METADATA] ?? 'jwt';
    return {
      audience: indicator,
      scope: settings.resourceScopes.join(' '),
      accessTokenTTL: settings.accessTokenTtl,
      accessTokenFormat: format,
      ...(format === 'jwt' ? { jwt: { sign: { alg: 'RS256', kid: currentKid } } } : {}),
    };
  };
}

function makeProvider(issuer) {
  const provider = new Provider(issuer, {
    adapter: SharedMemoryAdapter,
    clients: [
      {
        client_id: settings.pageClientId,
        client_secret: settings.pageClientSecret,
        client_name: 'elicit secure page (test)',
        // Native: a loopback redirect URI matches on any port (RFC 8252 section 7.3).
        application_type: 'native',
        redirect_uris: settings.pageRedirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: signingKeys },
    cookies: { keys: cookieKeys },
    findAccount,
    extraClientMetadata: {
      properties: [TOKEN_FORMAT_METADATA],
      validator(_ctx, key, value) {
        const known = value === undefined || value === 'jwt' || value === 'opaque';
        if (key === TOKEN_FORMAT_METADATA && !known) {
          throw new errors.InvalidClientMetadata(
            `${key} must be "jwt" or "opaque", not ${JSON.stringify(value)}`,
          );
        }
      },
    },
    // The resource scopes too: an MCP client registers with the scopes of the resource's
    // metadata (`scopes_supported`, as the official Python SDK does), and oidc-provider refuses
    // a registration naming a scope it does not know (invalid_client_metadata).
    scopes: ['openid', 'offline_access', 'profile', 'email', ...settings.resourceScopes],
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      email: ['email', 'email_verified'],
    },
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      introspection: {
        enabled: true,
        // A confidential client may introspect any token (the resource server's case); a public
        // one only its own.
        allowedPolicy: async (ctx, client, token) => client.clientAuthMethod !== 'none'
          || token.clientId === ctx.oidc.client.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf,
        // A token request without `resource` gets the one the authorization asked for.
        useGrantedResource: async () => true,
        getResourceServerInfo: resourceServer(signingKeys[0].kid),
      },
    },
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: settings.accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 3600,
    },
  });
  for (const event of [
    'server_error', 'authorization.error', 'grant.error', 'registration_create.error',
    'introspection.error', 'revocation.error', 'end_session.error', 'userinfo.error',
  ]) {
    provider.on(event, (_ctx, error) => {
      const why = [error.error_description, error.error_detail].filter(Boolean).join('; ');
      console.error(`oidc-provider: ${event}: ${error.message}${why ? ` (${why})` : ''}`);
    });
  }
  return provider;
}

// --- The login page and consent ------------------------------------------------------------------

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid, clientId, username, problem) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in (test provider)</title></head>
<body>
<h1>Sign in</h1>
<p>A test OpenID provider: type <code>alice</code> or <code>bob</code>; there is no password.</p>
<p>Client: <code>${escapeHtml(clientId)}</code></p>
${problem ? `<p id="problem" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="username">User name</label>
<input id="username" name="username" autocomplete="username" autofocus value="${escapeHtml(username ?? '')}">
<button type="submit">Sign in</button>
</form>
</body></html>
`;
}

function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

async function readForm(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new Error(`the form is larger than ${MAX_FORM_BYTES} bytes`);
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

// Grants whatever the prompt says is missing, as a user clicking "allow" would.
async function grantConsent(provider, req, res, details) {
  const { prompt: { details: missing }, params, session: { accountId } } = details;
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId, clientId: params.client_id });
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  const consent = details.grantId ? {} : { grantId };
  await provider.interactionFinished(req, res, { consent }, { mergeWithLastSubmission: true });
}

async function interaction(provider, req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) {
    send(res, 400, 'text/plain; charset=utf-8', 'this interaction is not the one of this browser\n');
    return;
  }
  const prompt = details.prompt.name;
  if (req.method === 'GET' && action === undefined) {
    if (prompt === 'login') {
      send(res, 200, 'text/html; charset=utf-8',
        loginPage(uid, details.params.client_id, details.params.login_hint));
    } else if (prompt === 'consent') {
      await grantConsent(provider, req, res, details);
    } else {
      send(res, 400, 'text/plain; charset=utf-8', `unknown prompt "${prompt}"\n`);
    }
    return;
  }
  if (req.method === 'POST' && action === 'login' && prompt === 'login') {
    const username = (await readForm(req)).get('username')?.trim() ?? '';
    if (!Object.hasOwn(USERS, username)) {
      const known = Object.keys(USERS).join(' or ');
      send(res, 400, 'text/html; charset=utf-8', loginPage(uid, details.params.client_id,
        username, `unknown user "${username}": this test provider knows ${known}`));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: username } },
      { mergeWithLastSubmission: false });
    return;
  }
  send(res, 405, 'text/plain; charset=utf-8', `${req.method} is not allowed here (prompt ${prompt})\n`);
}

// --- The server ----------------------------------------------------------------------------------

const server = http.createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, HOST, resolve);
});
const issuer = `http://${HOST}:${server.address().port}`;
// The provider that answers now, with its request handler (replaced by a key rotation).
function serving() {
  const provider = makeProvider(issuer);
  return { provider, handle: provider.callback() };
}
let current = serving();

function rotateKey() {
  signingKeys = [newSigningKey(), ...signingKeys];
  current = serving();
  const kids = signingKeys.map((key) => key.kid);
  console.log(`oidc-provider: signing key rotated, now ${kids[0]} (${kids.length} keys published)`);
  return { kid: kids[0], kids };
}

server.on('request', (req, res) => {
  const path = new URL(req.url, issuer).pathname;
  const { provider, handle } = current;
  const handled = (async () => {
    if (path === '/test/rotate-key') {
      if (req.method !== 'POST') {
        send(res, 405, 'text/plain; charset=utf-8', 'POST to rotate the signing key\n');
      } else {
        send(res, 200, 'application/json', `${JSON.stringify(rotateKey())}\n`);
      }
      return;
    }
    if (path === '/.well-known/oauth-authorization-server') {
      // RFC 8414's name for the same metadata, which OAuth clients (MCP's among them) try first.
      req.url = '/.well-known/openid-configuration';
    }
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login))?$/.exec(path);
    if (match) {
      await interaction(provider, req, res, match[1], match[2]);
      return;
    }
    handle(req, res);
  })();
  handled.catch((error) => {
    console.error(`oidc-provider: ${req.method} ${path}: ${error.stack ?? error}`);
    if (!res.headersSent) {
      const status = error.statusCode ?? 500;
      send(res, status, 'text/plain; charset=utf-8', `${error.error_description ?? error.message}\n`);
    } else {
      res.end();
    }
  });
});

function stop(reason) {
  console.log(`oidc-provider: stopping (${reason})`);
  server.close();
  server.closeAllConnections();
  process.exit(0);
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
setTimeout(() => stop(`time limit of ${settings.timeLimit} s`), settings.timeLimit * 1000);

console.log([
  `oidc-provider: page client ${settings.pageClientId}`,
  `redirect URIs ${settings.pageRedirectUris.join(' ')} (any loopback port)`,
  `resource scopes ${settings.resourceScopes.join(' ')}`,
  `signing key ${signingKeys[0].kid}`,
  `exits after ${settings.timeLimit} s`,
].join('; '));
console.log(`listening on ${issuer}`);
