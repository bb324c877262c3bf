import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, {
  type Adapter,
  type AdapterPayload,
  type ClientMetadata,
  type Configuration,
} from 'oidc-provider';

// A real OpenID Provider on 127.0.0.1 for tests, standing in for Google the way the payment sandboxes
// stand in for the payment providers: `oidc-provider` (an OpenID Certified implementation) with its
// real discovery document, authorization, token, UserInfo and JWKS endpoints, one registered client,
// PKCE required, and ID tokens carrying the email and profile claims as Google's do. People sign in on
// its own small interaction pages (an email, then Continue, or Cancel to refuse); API tests go through
// the same pages programmatically (`authorize`), browsers by hand.

/** A Google account of the test provider. */
export interface OidcAccount {
  /** The OpenID `sub`: stable, never the email. */
  subject: string;
  email: string;
  /** `email_verified` in the ID token (true unless a test says otherwise). */
  isEmailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  /** `name`; by default the given and family names together (left out when there are none). */
  name?: string;
}

export interface TestOidcProvider {
  /** The issuer URL (`http://127.0.0.1:<port>`), as GOOGLE_ISSUER_URL. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The environment that points a Bytegate server at this provider. */
  env: { GOOGLE_ISSUER_URL: string; GOOGLE_CLIENT_ID: string; GOOGLE_CLIENT_SECRET: string };
  /** Registers the redirect URI of a Bytegate server (`${PUBLIC_URL}/api/auth/google/callback`). */
  allowRedirectUri(uri: string): void;
  /** Adds (or replaces) an account; answers it, with a fresh `sub` unless one is given. */
  addAccount(account: Omit<OidcAccount, 'subject'> & { subject?: string }): OidcAccount;
  /**
   * Plays the browser at the provider, programmatically: follows `authorizationUrl` to the sign-in
   * page, signs in as `email` (or cancels, `deny`), and answers the URL the provider redirects back to
   * (the Bytegate callback with `code` and `state`, or `error`).
   */
  authorize(authorizationUrl: string, as: { email: string } | { deny: true }): Promise<URL>;
  /** Stops answering (Google down) until `resume()`. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const CLIENT_ID = 'bytegate-test-client';
const CLIENT_SECRET = 'bytegate-test-client-secret-0123456789';

/** Starts the provider on a free port of 127.0.0.1. */
export async function startOidcProvider(): Promise<TestOidcProvider> {
  const accounts = new Map<string, OidcAccount>();
  const redirectUris: string[] = [];
  let provider: Provider | null = null;
  let isPaused = false;
  const signingKey = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: randomUUID(),
    alg: 'RS256',
    use: 'sig',
  };

  const server: Server = createServer((request, response) => {
    if (isPaused) {
      request.socket.destroy();
      return;
    }
    handle(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** The provider, built again whenever a redirect URI is registered (its clients are static). */
  function build(): Provider {
    const client: ClientMetadata = {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    };
    const configuration: Configuration = {
      clients: redirectUris.length > 0 ? [client] : [],
      jwks: { keys: [signingKey] },
      adapter: MemoryAdapter,
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 600,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
      },
      cookies: { keys: ['bytegate test provider cookie key'] },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'given_name', 'family_name'],
      },
      // As Google does: the email and profile claims in the ID token itself.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, subject) => {
        const account = accounts.get(subject);
        if (!account) {
          return undefined;
        }
        return {
          accountId: subject,
          claims: () => ({
            sub: subject,
            email: account.email,
            email_verified: account.isEmailVerified ?? true,
            ...(account.givenName ? { given_name: account.givenName } : {}),
            ...(account.familyName ? { family_name: account.familyName } : {}),
            ...nameOf(account),
          }),
        };
      },
      renderError: (ctx, out) => {
        ctx.type = 'text/plain';
        ctx.body = `${out.error}: ${out.error_description ?? ''}`;
      },
    };
    const built = new Provider(issuer, configuration);
    // Quiet: the tests provoke refusals on purpose.
    built.on('server_error', () => undefined);
    return built;
  }
  provider = build();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const current = provider ?? build();
    const url = new URL(request.url ?? '/', issuer);
    const match = /^\/interaction\/([^/]+)(\/login|\/abort)?$/.exec(url.pathname);
    if (!match) {
      current.callback()(request, response);
      return;
    }
    const details = await current.interactionDetails(request, response);
    if (match[2] === '/abort') {
      await current.interactionFinished(request, response, {
        error: 'access_denied',
        error_description: 'The person cancelled the sign-in',
      });
      return;
    }
    if (match[2] === '/login' && request.method === 'POST') {
      const form = new URLSearchParams(await readBody(request));
      const account = [...accounts.values()].find((a) => a.email === form.get('email')?.trim());
      if (!account) {
        sendPage(response, signInPage(details.uid, 'No account with that email here.'));
        return;
      }
      // Sign-in and consent at once: the grant covers what the client asked for.
      const grant = new current.Grant({
        accountId: account.subject,
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope(String(details.params.scope));
      await current.interactionFinished(
        request,
        response,
        { login: { accountId: account.subject }, consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    sendPage(response, signInPage(details.uid));
  }

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    env: { GOOGLE_ISSUER_URL: issuer, GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET },
    allowRedirectUri(uri) {
      if (!redirectUris.includes(uri)) {
        redirectUris.push(uri);
        provider = build();
      }
    },
    addAccount(account) {
      const added = { ...account, subject: account.subject ?? randomUUID().replaceAll('-', '') };
      accounts.set(added.subject, added);
      return added;
    },
    async authorize(authorizationUrl, as) {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      let form: URLSearchParams | null = null;
      for (let hop = 0; hop < 10; hop++) {
        const response = await fetch(url, {
          method: form ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
            ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          body: form,
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const separator = pair.indexOf('=');
          jar.set(pair.slice(0, separator), pair.slice(separator + 1));
        }
        form = null;
        const location = response.headers.get('location');
        if (location) {
          const next = new URL(location, url);
          if (next.origin !== issuer) {
            return next;
          }
          url = next;
          continue;
        }
        const page = await response.text();
        const uid = /name="uid" value="([^"]+)"/.exec(page)?.[1];
        if (response.status !== 200 || !uid) {
          throw new Error(
            `the provider answered ${response.status} at ${url.pathname}: ${page.slice(0, 300)}`,
          );
        }
        if ('deny' in as) {
          url = new URL(`/interaction/${uid}/abort`, issuer);
        } else {
          url = new URL(`/interaction/${uid}/login`, issuer);
          form = new URLSearchParams({ email: as.email });
        }
      }
      throw new Error('the provider redirected too many times');
    },
    pause() {
      isPaused = true;
    },
    resume() {
      isPaused = false;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function nameOf(account: OidcAccount): { name?: string } {
  const name = account.name ?? [account.givenName, account.familyName].filter(Boolean).join(' ');
  return name ? { name } : {};
}

/** The provider's state (sessions, codes, grants) in this process's memory: all a test needs. */
class MemoryAdapter implements Adapter {
  private static readonly store = new Map<string, { payload: AdapterPayload; expiresAt: number }>();

  constructor(private readonly model: string) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    MemoryAdapter.store.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const entry = MemoryAdapter.store.get(this.key(id));
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    for (const [key, entry] of MemoryAdapter.store) {
      if (key.startsWith(`${this.model}:`) && entry.payload.uid === uid && entry.expiresAt > Date.now()) {
        return entry.payload;
      }
    }
    return undefined;
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const entry = MemoryAdapter.store.get(this.key(id));
    if (entry) {
      entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
  }

  async destroy(id: string): Promise<void> {
    MemoryAdapter.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, entry] of MemoryAdapter.store) {
      if (entry.payload.grantId === grantId) {
        MemoryAdapter.store.delete(key);
      }
    }
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

function sendPage(response: ServerResponse, html: string): void {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(html);
}

/** The provider's sign-in page: an email field, Continue, and Cancel (which refuses the sign-in). */
function signInPage(uid: string, error?: string): string {
  const escapedUid = uid.replace(/[^A-Za-z0-9_-]/g, '');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in - Local OpenID Provider</title></head>
<body><main>
<h1>Sign in to the Local OpenID Provider</h1>
${error ? `<p role="alert">${error}</p>` : ''}
<form method="post" action="/interaction/${escapedUid}/login">
<input type="hidden" name="uid" value="${escapedUid}">
<label>Email <input type="email" name="email" autocomplete="email" required></label>
<button type="submit">Continue</button>
</form>
<form method="get" action="/interaction/${escapedUid}/abort"><button type="submit">Cancel</button></form>
</main></body></html>`;
}
