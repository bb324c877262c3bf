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
  /** Sends the bearer token, and ends the session on a 401 (default true). */
  auth?: boolean;
  signal?: AbortSignal;
}

/** The one way the web app talks to the API: JSON under /api, errors as ApiError. */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const { auth = true } = options;
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = sessionStore.get()?.token;
  if (auth && token) {
    headers.authorization = `Bearer ${token}`;
  }
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`/api${path}`, {
    method,
    headers,
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
  if (!response.ok) {
    if (response.status === 401 && auth && token) {
      sessionStore.signOut();
    }
    throw new ApiError(response.status, (data ?? {}) as ApiErrorBody & Record<string, unknown>);
  }
  return data as T;
}

/** The server's message for a failed call, or the screen's fallback wording. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message && !error.message.startsWith('Request failed')
    ? error.message
    : fallback;
}
