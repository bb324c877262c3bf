import type { ApiErrorBody } from '@bytegate/contracts/errors';
import { sessionStore } from '../features/auth/session-store.ts';

/** A non-2xx answer of the API, carrying the server's readable message and machine code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.error === 'string' ? body.error : `Request failed (${status})`);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof body.code === 'string' ? body.code : 'UNKNOWN';
    this.body = body;
  }
}

interface RequestOptions {
  body?: unknown;
  /** A signed-in call: it carries the CSRF token when it changes state, and a 401 ends the session (default true). */
  auth?: boolean;
  signal?: AbortSignal;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

async function send(method: string, path: string, options: RequestOptions, csrfToken: string | null) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  if (csrfToken) {
    headers['x-csrf-token'] = csrfToken;
  }
  // The session cookie goes with every same-origin call; it is httpOnly, so this code never sees it.
  const response = await fetch(`/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? null : JSON.stringify(options.body),
    signal: options.signal ?? null,
  });
  const text = await response.text();
  let data: unknown = {};
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = {};
    }
  }
  return { response, data: (data ?? {}) as Record<string, unknown> };
}

let csrfLookup: Promise<string | null> | null = null;

/**
 * The session's CSRF token: kept in memory from sign-in, or (after a reload, or another tab's sign-in)
 * asked of `GET /auth/me`, which also refreshes the stored user. One lookup serves concurrent callers.
 */
function csrfToken(): Promise<string | null> {
  const known = sessionStore.getCsrfToken();
  if (known) {
    return Promise.resolve(known);
  }
  csrfLookup ??= send('GET', '/auth/me', {}, null)
    .then(({ response, data }) => {
      if (!response.ok || typeof data.csrfToken !== 'string') {
        return null;
      }
      sessionStore.setCsrfToken(data.csrfToken);
      return data.csrfToken;
    })
    .finally(() => {
      csrfLookup = null;
    });
  return csrfLookup;
}

/** The one way the web app talks to the API: JSON under /api, errors as ApiError. */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const { auth = true } = options;
  const needsCsrf = auth && !SAFE_METHODS.has(method);
  let { response, data } = await send(method, path, options, needsCsrf ? await csrfToken() : null);
  if (needsCsrf && response.status === 403 && data.code === 'CSRF_FAILED') {
    // The cookie changed under this tab (a sign-in elsewhere): fetch the token again, once.
    sessionStore.setCsrfToken(null);
    ({ response, data } = await send(method, path, options, await csrfToken()));
  }
  if (!response.ok) {
    if (response.status === 401 && auth) {
      sessionStore.signOut();
    }
    throw new ApiError(response.status, data as ApiErrorBody & Record<string, unknown>);
  }
  return data as T;
}

/** The server's message for a failed call, or the screen's fallback wording. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message && !error.message.startsWith('Request failed')
    ? error.message
    : fallback;
}
