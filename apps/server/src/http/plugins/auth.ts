import { messages } from '@bytegate/contracts/messages';
import type { SessionRow, UserRow } from '@bytegate/db/queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authenticateToken } from '../../services/accounts/authenticate-token.ts';
import type { ServiceContext } from '../../services/context.ts';
import { AppError } from '../app-error.ts';

export interface Auth {
  user: UserRow;
  session: SessionRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireAuth` for signed-in requests. */
    auth: Auth | null;
  }
  interface FastifyInstance {
    /** onRequest hook: answers 401 unless a live bearer token came with the request. */
    requireAuth: (request: FastifyRequest) => Promise<void>;
  }
}

const BEARER = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/;

export const authPlugin = fp(async (app: FastifyInstance, opts: { ctx: ServiceContext }) => {
  app.decorateRequest('auth', null);
  app.decorate('requireAuth', async (request: FastifyRequest) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match?.[1]) {
      throw new AppError('UNAUTHENTICATED', messages.notSignedIn);
    }
    const found = await authenticateToken(opts.ctx, match[1]);
    if (!found) {
      throw new AppError('UNAUTHENTICATED', messages.sessionExpired);
    }
    request.auth = found;
  });
});

/** The signed-in user of a route guarded by `requireAuth`. */
export function getAuth(request: FastifyRequest): Auth {
  if (!request.auth) {
    throw new AppError('UNAUTHENTICATED', messages.notSignedIn);
  }
  return request.auth;
}

export function getOrigin(request: FastifyRequest) {
  return { ipAddress: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}
