import type { TestOidcProvider } from './oidc-provider.ts';
import type { TestServer } from './test-server.ts';

// Sign-in with Google in API tests: a cookie-keeping client that plays the browser at a Bytegate test
// server (redirects read, not followed), and the round trip through the local OpenID provider.

export interface BrowserAnswer<T = Record<string, unknown>> {
  status: number;
  /** The redirect's target, relative to the server (`/dashboard#signed-in=google`), or null. */
  location: string | null;
  body: T;
  headers: Headers;
}

/** A browser's cookies at one Bytegate server: set by its answers, sent with its requests. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  constructor(readonly server: TestServer) {}

  /** A request as this browser sends it (the session cookie, and the CSRF token on state changes). */
  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<BrowserAnswer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    if (this.csrfToken && method !== 'GET' && !('x-csrf-token' in headers)) {
      headers['x-csrf-token'] = this.csrfToken;
    }
    const response = await fetch(`${this.server.url}${path}`, {
      method,
      headers,
      redirect: 'manual',
      body: options.body === undefined ? null : JSON.stringify(options.body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      const isDeleted =
        value === '' ||
        attributes.some(
          (attribute) =>
            /^max-age=0$/i.test(attribute) ||
            (/^expires=/i.test(attribute) && Date.parse(attribute.slice(8)) < Date.now()),
        );
      if (isDeleted) {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
    const text = await response.text();
    let body = {} as T;
    if (text && response.headers.get('content-type')?.includes('json')) {
      body = JSON.parse(text) as T;
    }
    const location = response.headers.get('location');
    const relative = location?.startsWith(this.server.url)
      ? location.slice(this.server.url.length)
      : location;
    return { status: response.status, location: relative ?? null, body, headers: response.headers };
  }

  /** Reads the signed-in user (and the session's CSRF token, kept for later requests). */
  async me() {
    const answer = await this.request<{
      user: { firstName: string; lastName: string; email: string };
      csrfToken?: string;
    }>('GET', '/api/auth/me');
    if (answer.status === 200 && answer.body.csrfToken) {
      this.csrfToken = answer.body.csrfToken;
    }
    return answer;
  }

  hasSession(): boolean {
    return this.cookies.has('bytegate_session');
  }
}

/**
 * One sign-in with Google from the login page's button: the start redirect, the provider's sign-in
 * page as `email` (or its Cancel), then Google's redirect back to the callback. Answers the callback's
 * answer (its redirect into the web app) and the callback URL, to replay or tamper with.
 */
export async function signInWithGoogle(
  browser: TestBrowser,
  provider: TestOidcProvider,
  as: { email: string } | { deny: true },
): Promise<BrowserAnswer & { callback: string }> {
  const start = await browser.request('GET', '/api/auth/google/start');
  if (start.status !== 303 || !start.location?.startsWith(provider.issuer)) {
    throw new Error(`the start did not redirect to the provider: ${start.status} ${start.location}`);
  }
  return finishAtProvider(browser, provider, start.location, as);
}

/** The provider's part and the callback, from an authorization URL (a sign-in's or a link's). */
export async function finishAtProvider(
  browser: TestBrowser,
  provider: TestOidcProvider,
  authorizationUrl: string,
  as: { email: string } | { deny: true },
): Promise<BrowserAnswer & { callback: string }> {
  const back = await provider.authorize(authorizationUrl, as);
  const callback = back.pathname + back.search;
  return { ...(await browser.request('GET', callback)), callback };
}
