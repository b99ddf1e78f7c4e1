// The test provider's own check, with no Rust involved: `bash .ci/oidc --selftest`.
// It does over plain HTTP what the authorization tests do through the official clients and a
// browser: discovery, dynamic registration of a public client, the authorization code flow with
// PKCE for alice and bob (the login form posted as a browser would), a JWT access token for a
// resource (RFC 8707) verified against the JWKS, introspection with the page client's
// credentials, revocation, the page client's own login (any loopback port) with its ID token,
// and a key rotation after which new tokens carry the new kid.

import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import { before, describe, test } from 'node:test';

import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';

const ISSUER = process.env.ELICIT_OIDC_ISSUER;
const PAGE_CLIENT_ID = process.env.ELICIT_OIDC_PAGE_CLIENT_ID;
const PAGE_CLIENT_SECRET = process.env.ELICIT_OIDC_PAGE_CLIENT_SECRET;
const ROTATE_URL = process.env.ELICIT_OIDC_ROTATE_URL;
// Nothing listens there: the flow stops at the redirect and reads the code from its URL.
const RESOURCE = 'http://127.0.0.1:9/mcp';
const CLIENT_REDIRECT = 'http://127.0.0.1:9/callback';
const PAGE_REDIRECT = 'http://127.0.0.1:45678/login/callback';
const MAX_STEPS = 20;

for (const [name, value] of Object.entries({ ISSUER, PAGE_CLIENT_ID, PAGE_CLIENT_SECRET, ROTATE_URL })) {
  if (!value) throw new Error(`ELICIT_OIDC_${name} is not set: run this as bash .ci/oidc --selftest`);
}

// A browser's cookies for one host, enough for the provider's: every cookie sent everywhere.
class Browser {
  cookies = new Map();

  async get(url) {
    return this.send(url, { method: 'GET' });
  }

  async send(url, init) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expires = attributes.find((a) => a.trim().toLowerCase().startsWith('expires='));
      const gone = value === '' || (expires && Date.parse(expires.split('=')[1]) < Date.now());
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

const base64url = (bytes) => Buffer.from(bytes).toString('base64url');

function pkce() {
  const verifier = base64url(crypto.randomBytes(32));
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

async function json(response, expectedStatus = 200) {
  const text = await response.text();
  assert.equal(response.status, expectedStatus, `status ${response.status}: ${text}`);
  return JSON.parse(text);
}

let discovery;

async function registerPublicClient(metadata = {}) {
  const response = await fetch(discovery.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'selftest MCP client',
      redirect_uris: [CLIENT_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...metadata,
    }),
  });
  const client = await json(response, 201);
  assert.ok(client.client_id, 'a client_id');
  assert.equal(client.client_secret, undefined, 'a public client gets no secret');
  return client;
}

// Follows the provider's redirects and fills its login form with `username`, as a browser and
// its user would, until the provider redirects to `redirectUri`; returns that URL's parameters.
async function authorize(browser, parameters, username, redirectUri) {
  let url = `${discovery.authorization_endpoint}?${new URLSearchParams(parameters)}`;
  let response = await browser.get(url);
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (response.status === 302 || response.status === 303) {
      url = new URL(response.headers.get('location'), url).href;
      if (url.startsWith(redirectUri)) return new URL(url).searchParams;
      assert.ok(url.startsWith(ISSUER), `a redirect away from the provider: ${url}`);
      response = await browser.get(url);
    } else if (response.status === 200) {
      const page = await response.text();
      const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
      assert.ok(action, `a page without the login form: ${page}`);
      url = new URL(action, url).href;
      response = await browser.send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username }),
      });
    } else {
      assert.fail(`status ${response.status} at ${url}: ${await response.text()}`);
    }
  }
  return assert.fail(`no redirect to ${redirectUri} after ${MAX_STEPS} steps`);
}

// The whole flow for a public client: returns the token response.
async function accessTokenFor(client, username, redirectUri = CLIENT_REDIRECT) {
  const { verifier, challenge } = pkce();
  const state = base64url(crypto.randomBytes(16));
  const answer = await authorize(new Browser(), {
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'mcp:tools',
    resource: RESOURCE,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }, username, redirectUri);
  assert.equal(answer.get('error'), null, `refused: ${answer}`);
  assert.equal(answer.get('state'), state);
  assert.equal(answer.get('iss'), ISSUER, 'RFC 9207 iss on the authorization response');
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: answer.get('code'),
      redirect_uri: redirectUri,
      client_id: client.client_id,
      code_verifier: verifier,
      resource: RESOURCE,
    }),
  });
  return json(response);
}

async function jwksKids() {
  const { keys } = await json(await fetch(discovery.jwks_uri));
  return keys.map((key) => key.kid);
}

// Verifies as a resource server would: signature by a key of the JWKS (fetched now), iss, aud,
// typ at+jwt (RFC 9068), expiry.
async function verifyAccessToken(token) {
  const keys = createRemoteJWKSet(new URL(discovery.jwks_uri));
  const { payload, protectedHeader } = await jwtVerify(token, keys, {
    issuer: ISSUER,
    audience: RESOURCE,
    typ: 'at+jwt',
    algorithms: ['RS256'],
  });
  return { payload, protectedHeader };
}

async function introspect(token) {
  const credentials = Buffer.from(
    `${encodeURIComponent(PAGE_CLIENT_ID)}:${encodeURIComponent(PAGE_CLIENT_SECRET)}`,
  ).toString('base64');
  return json(await fetch(discovery.introspection_endpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${credentials}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
  }));
}

before(async () => {
  discovery = await json(await fetch(`${ISSUER}/.well-known/openid-configuration`));
});

describe('the test OpenID provider', () => {
  test('publishes its metadata at both well-known names, PKCE S256 only', async () => {
    assert.equal(discovery.issuer, ISSUER);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri',
      'registration_endpoint', 'introspection_endpoint', 'revocation_endpoint']) {
      assert.ok(discovery[endpoint]?.startsWith(`${ISSUER}/`), `${endpoint}: ${discovery[endpoint]}`);
    }
    assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(discovery.response_types_supported, ['code']);
    const rfc8414 = await json(await fetch(`${ISSUER}/.well-known/oauth-authorization-server`));
    assert.deepEqual(rfc8414, discovery);
  });

  test('refuses an authorization request without PKCE', async () => {
    const client = await registerPublicClient();
    const answer = await authorize(new Browser(), {
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: CLIENT_REDIRECT,
      scope: 'mcp:tools',
      resource: RESOURCE,
    }, 'alice', CLIENT_REDIRECT);
    assert.equal(answer.get('error'), 'invalid_request');
    assert.match(answer.get('error_description'), /PKCE/);
  });

  test('refuses a request that asks for no scope', async () => {
    const client = await registerPublicClient();
    const { challenge } = pkce();
    const answer = await authorize(new Browser(), {
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: CLIENT_REDIRECT,
      resource: RESOURCE,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }, 'alice', CLIENT_REDIRECT);
    assert.equal(answer.get('error'), 'access_denied');
  });

  test('serves a native public client on localhost, as the MCP clients register', async () => {
    const redirect = 'http://localhost:33333/callback';
    const client = await registerPublicClient({ application_type: 'native', redirect_uris: [redirect] });
    const tokens = await accessTokenFor(client, 'alice', redirect);
    const { payload } = await verifyAccessToken(tokens.access_token);
    assert.equal(payload.sub, 'alice');
  });

  test('refuses an unknown user at its login form', async () => {
    const client = await registerPublicClient();
    const { challenge } = pkce();
    const browser = new Browser();
    const parameters = new URLSearchParams({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: CLIENT_REDIRECT,
      scope: 'mcp:tools',
      resource: RESOURCE,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const start = await browser.get(`${discovery.authorization_endpoint}?${parameters}`);
    const interaction = new URL(start.headers.get('location'), ISSUER).href;
    const page = await (await browser.get(interaction)).text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)[1];
    const refused = await browser.send(new URL(action, ISSUER), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'mallory' }),
    });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /unknown user &#34;mallory&#34;/);
  });

  test('gives alice a JWT access token for the resource', async () => {
    const client = await registerPublicClient();
    const tokens = await accessTokenFor(client, 'alice');
    assert.equal(tokens.token_type, 'Bearer');
    const { payload, protectedHeader } = await verifyAccessToken(tokens.access_token);
    assert.equal(payload.iss, ISSUER);
    assert.equal(payload.aud, RESOURCE);
    assert.equal(payload.sub, 'alice');
    assert.equal(payload.scope, 'mcp:tools');
    assert.equal(payload.client_id, client.client_id);
    assert.ok(payload.exp > Date.now() / 1000);
    assert.ok((await jwksKids()).includes(protectedHeader.kid), 'its kid is in the JWKS');
    assert.equal(protectedHeader.alg, 'RS256');
  });

  test('introspects no JWT access token (a JWT is verified by its signature)', async () => {
    const client = await registerPublicClient();
    const tokens = await accessTokenFor(client, 'alice');
    const credentials = Buffer.from(`${PAGE_CLIENT_ID}:${PAGE_CLIENT_SECRET}`).toString('base64');
    const refused = await json(await fetch(discovery.introspection_endpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token: tokens.access_token }),
    }), 400);
    assert.equal(refused.error, 'unsupported_token_type');
  });

  test('refuses an unknown access token format at registration', async () => {
    const refused = await json(await fetch(discovery.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [CLIENT_REDIRECT],
        token_endpoint_auth_method: 'none',
        elicit_access_token_format: 'paseto',
      }),
    }), 400);
    assert.equal(refused.error, 'invalid_client_metadata');
  });

  test('gives an opaque token to a client that asks for one: introspected, revoked', async () => {
    const client = await registerPublicClient({ elicit_access_token_format: 'opaque' });
    assert.equal(client.elicit_access_token_format, 'opaque');
    const tokens = await accessTokenFor(client, 'alice');
    assert.doesNotMatch(tokens.access_token, /\./, 'not a JWT');

    const active = await introspect(tokens.access_token);
    assert.equal(active.active, true);
    assert.equal(active.client_id, client.client_id);
    assert.equal(active.sub, 'alice');
    assert.equal(active.aud, RESOURCE);
    assert.equal(active.scope, 'mcp:tools');
    assert.equal(active.iss, ISSUER);

    const revoked = await fetch(discovery.revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access_token, client_id: client.client_id }),
    });
    assert.equal(revoked.status, 200, await revoked.text());
    assert.equal((await introspect(tokens.access_token)).active, false);
  });

  test('gives bob another sub', async () => {
    const client = await registerPublicClient();
    const alice = await verifyAccessToken((await accessTokenFor(client, 'alice')).access_token);
    const bob = await verifyAccessToken((await accessTokenFor(client, 'bob')).access_token);
    assert.equal(bob.payload.sub, 'bob');
    assert.notEqual(bob.payload.sub, alice.payload.sub);
  });

  test('signs the page client in on any loopback port, with a verified ID token', async () => {
    const { verifier, challenge } = pkce();
    const nonce = base64url(crypto.randomBytes(16));
    const state = base64url(crypto.randomBytes(16));
    const answer = await authorize(new Browser(), {
      client_id: PAGE_CLIENT_ID,
      response_type: 'code',
      redirect_uri: PAGE_REDIRECT,
      scope: 'openid profile',
      state,
      nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }, 'bob', PAGE_REDIRECT);
    assert.equal(answer.get('error'), null, `refused: ${answer}`);
    assert.equal(answer.get('state'), state);
    const credentials = Buffer.from(`${PAGE_CLIENT_ID}:${PAGE_CLIENT_SECRET}`).toString('base64');
    const tokens = await json(await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: answer.get('code'),
        redirect_uri: PAGE_REDIRECT,
        code_verifier: verifier,
      }),
    }));
    const keys = createRemoteJWKSet(new URL(discovery.jwks_uri));
    const { payload } = await jwtVerify(tokens.id_token, keys, {
      issuer: ISSUER,
      audience: PAGE_CLIENT_ID,
      algorithms: ['RS256'],
    });
    assert.equal(payload.sub, 'bob');
    assert.equal(payload.nonce, nonce);
    assert.equal(payload.preferred_username, undefined, 'claims come from userinfo, not the ID token');
  });

  test('rotates its signing key: new tokens carry a new kid, published beside the old', async () => {
    const client = await registerPublicClient();
    const before = await accessTokenFor(client, 'alice');
    const oldKid = decodeProtectedHeader(before.access_token).kid;

    const rotation = await json(await fetch(ROTATE_URL, { method: 'POST' }));
    assert.notEqual(rotation.kid, oldKid);
    const kids = await jwksKids();
    assert.ok(kids.includes(rotation.kid), 'the new kid is in the JWKS');
    assert.ok(kids.includes(oldKid), 'the old kid is still in the JWKS');

    // The client registered before the rotation still works, and its new token is signed by
    // the new key.
    const after = await accessTokenFor(client, 'alice');
    const { payload, protectedHeader } = await verifyAccessToken(after.access_token);
    assert.equal(protectedHeader.kid, rotation.kid);
    assert.equal(payload.sub, 'alice');
    const old = await verifyAccessToken(before.access_token);
    assert.equal(old.protectedHeader.kid, oldKid, 'a token of the old key still verifies');
  });
});
