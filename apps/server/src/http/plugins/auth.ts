import type { StaffRole } from '@bytegate/contracts/admin';
import { apiKeyMessages } from '@bytegate/contracts/api-keys';
import { messages } from '@bytegate/contracts/messages';
import type { SessionRow, UserRow } from '@bytegate/db/queries';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { authenticateToken } from '../../services/accounts/authenticate-token.ts';
import { csrfTokenFor, isCsrfTokenValid } from '../../services/accounts/session-tokens.ts';
import { TRUSTED_DEVICE_TTL_MS } from '../../services/accounts/trusted-devices.ts';
import { isApiKeySecret } from '../../services/api-keys/api-keys.ts';
import { hasRole } from '../../services/back-office/staff-actor.ts';
import type { ServiceContext } from '../../services/context.ts';
import { DomainError } from '../../services/domain-error.ts';

export interface Auth {
  user: UserRow;
  session: SessionRow;
  /** The session's CSRF token when it came as the browser's cookie; null for a bearer token. */
  csrfToken: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireAuth` for signed-in requests. */
    auth: Auth | null;
  }
  interface FastifyInstance {
    /** onRequest hook: answers 401 unless a live bearer token or session cookie came with the request. */
    requireAuth: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * onRequest hook of a staff role: 401 like `requireAuth` without a live session, 403 when the
     * signed-in user's role does not include `role` (admin includes support).
     */
    requireStaff: (role: StaffRole) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

const BEARER = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/;
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The browser session's cookie. On https it carries the `__Host-` prefix, which browsers accept only
 * from a secure origin with Path=/ and no Domain, so no other host or plain-http page can set it.
 */
export function sessionCookieName(config: Config): string {
  return isHttps(config) ? '__Host-bytegate_session' : 'bytegate_session';
}

const isHttps = (config: Config) => config.publicUrl.startsWith('https:');

/** Sets the httpOnly session cookie of a browser sign-in; scripts never see the token. */
export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(sessionCookieName(config), token, {
    httpOnly: true,
    secure: isHttps(config),
    sameSite: 'lax',
    path: '/',
    maxAge: Math.floor(config.sessionTtlMs / 1000),
  });
}

/** The browser's device cookie: marks a browser that signed in to an account before (login throttle). */
export function deviceCookieName(config: Config): string {
  return isHttps(config) ? '__Host-bytegate_device' : 'bytegate_device';
}

export function setDeviceCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(deviceCookieName(config), token, {
    httpOnly: true,
    secure: isHttps(config),
    sameSite: 'lax',
    path: '/',
    maxAge: Math.floor(TRUSTED_DEVICE_TTL_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), {
    httpOnly: true,
    secure: isHttps(config),
    sameSite: 'lax',
    path: '/',
  });
}

/**
 * Who is asking. Programmatic clients send `Authorization: Bearer <token>`, which is used alone when
 * present. The web app's requests carry the httpOnly session cookie instead; on those, every
 * state-changing request must also carry the session's CSRF token in `X-CSRF-Token` and must not come
 * from another site (Fetch Metadata), so a page elsewhere cannot act with the visitor's cookie.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { ctx: ServiceContext }) => {
  const { config } = opts.ctx;
  const cookieName = sessionCookieName(config);
  app.decorateRequest('auth', null);
  app.decorate('requireAuth', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const match = BEARER.exec(header);
      if (!match?.[1]) {
        throw new DomainError('UNAUTHENTICATED', messages.notSignedIn);
      }
      if (isApiKeySecret(match[1])) {
        // Keys drive the public API only: never the dashboard, account settings or the console.
        throw new DomainError('UNAUTHENTICATED', apiKeyMessages.keyNotAccepted);
      }
      const found = await authenticateToken(opts.ctx, match[1]);
      if (!found) {
        throw new DomainError('UNAUTHENTICATED', messages.sessionExpired);
      }
      request.auth = { ...found, csrfToken: null };
      return;
    }
    const cookie = request.cookies[cookieName];
    if (!cookie) {
      throw new DomainError('UNAUTHENTICATED', messages.notSignedIn);
    }
    const found = TOKEN.test(cookie) ? await authenticateToken(opts.ctx, cookie) : null;
    if (!found) {
      clearSessionCookie(reply, config);
      throw new DomainError('UNAUTHENTICATED', messages.sessionExpired);
    }
    if (!SAFE_METHODS.has(request.method)) {
      const csrfHeader = request.headers['x-csrf-token'];
      const isCrossSite = request.headers['sec-fetch-site'] === 'cross-site';
      if (isCrossSite || !isCsrfTokenValid(cookie, typeof csrfHeader === 'string' ? csrfHeader : undefined)) {
        throw new DomainError('CSRF_FAILED', messages.csrfFailed);
      }
    }
    request.auth = { ...found, csrfToken: csrfTokenFor(cookie) };
  });
  app.decorate('requireStaff', (role: StaffRole) => async (request: FastifyRequest, reply: FastifyReply) => {
    await app.requireAuth(request, reply);
    if (!hasRole(getAuth(request).user.role, role)) {
      throw new DomainError('FORBIDDEN', role === 'admin' ? messages.adminOnly : messages.staffOnly);
    }
  });
});

/**
 * The signed-in user of a public route, if any (the contact form: support sees whose account wrote),
 * or null. It never refuses: a missing, expired or cross-site session is simply nobody. A cookie
 * counts only with its CSRF token, so a page elsewhere cannot write in a visitor's name.
 */
export async function signedInUserIdOf(ctx: ServiceContext, request: FastifyRequest): Promise<string | null> {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const token = BEARER.exec(header)?.[1];
    return token ? ((await authenticateToken(ctx, token))?.user.id ?? null) : null;
  }
  const cookie = request.cookies[sessionCookieName(ctx.config)];
  const csrfHeader = request.headers['x-csrf-token'];
  if (
    !cookie ||
    !TOKEN.test(cookie) ||
    request.headers['sec-fetch-site'] === 'cross-site' ||
    !isCsrfTokenValid(cookie, typeof csrfHeader === 'string' ? csrfHeader : undefined)
  ) {
    return null;
  }
  return (await authenticateToken(ctx, cookie))?.user.id ?? null;
}

/**
 * The live session a request carries (its bearer token, or else the browser's cookie), or null; it never
 * refuses. With no CSRF check it may only spare a session, never act in its name: following a link that
 * changes the account's email keeps the session of the browser that follows it.
 */
export async function currentSessionOf(
  ctx: ServiceContext,
  request: FastifyRequest,
): Promise<{ userId: string; sessionId: string } | null> {
  const header = request.headers.authorization;
  const token =
    header === undefined ? request.cookies[sessionCookieName(ctx.config)] : BEARER.exec(header)?.[1];
  if (!token || !TOKEN.test(token) || isApiKeySecret(token)) {
    return null;
  }
  const found = await authenticateToken(ctx, token);
  return found ? { userId: found.user.id, sessionId: found.session.id } : null;
}

/** The signed-in user of a route guarded by `requireAuth`. */
export function getAuth(request: FastifyRequest): Auth {
  if (!request.auth) {
    throw new DomainError('UNAUTHENTICATED', messages.notSignedIn);
  }
  return request.auth;
}

export function getOrigin(request: FastifyRequest) {
  return { ipAddress: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}
