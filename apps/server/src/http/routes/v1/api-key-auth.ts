import { type ApiKeyScope, apiKeyMessages } from '@bytegate/contracts/api-keys';
import { waitMessages } from '@bytegate/contracts/messages';
import type { ApiKeyRow, UserRow } from '@bytegate/db/queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateApiKey } from '../../../services/api-keys/api-keys.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { DomainError } from '../../../services/domain-error.ts';
import { keyedRateLimit } from '../../rate-limits.ts';

export interface ApiKeyAuth {
  key: ApiKeyRow;
  user: UserRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on `/api/v1` routes: the key the request came with, and its owner. */
    apiKey: ApiKeyAuth | null;
  }
  interface FastifyContextConfig {
    /** The scope an `/api/v1` route needs of the key (checked after the key, before the handler). */
    scope?: ApiKeyScope;
  }
}

const BEARER = /^Bearer\s+(\S+)$/;

/**
 * The public API's guard, for every route of the plugin it is added to: a live API key as
 * `Authorization: Bearer bg_live_…` (401 otherwise), its own rate limit (429 with Retry-After), and
 * the scope the route's `config.scope` names (403 INSUFFICIENT_SCOPE).
 */
export function guardWithApiKeys(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('apiKey', null);
  const limit = keyedRateLimit(
    app,
    ctx.config.rateLimits.apiKeyRequests,
    (request) => `api-key:${getApiKey(request).key.id}`,
    waitMessages.tooManyRequests,
  );
  app.addHook('onRequest', async (request) => {
    const secret = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!secret) {
      throw new DomainError('UNAUTHENTICATED', apiKeyMessages.missingKey);
    }
    const found = await authenticateApiKey(ctx, secret, request.ip ?? null);
    if (!found) {
      throw new DomainError('UNAUTHENTICATED', apiKeyMessages.invalidKey);
    }
    request.apiKey = found;
    await limit(request);
    const scope = request.routeOptions.config.scope;
    if (scope && !found.key.scopes.includes(scope)) {
      throw new DomainError('INSUFFICIENT_SCOPE', apiKeyMessages.insufficientScope(scope), {
        required: scope,
      });
    }
  });
}

export function getApiKey(request: FastifyRequest): ApiKeyAuth {
  if (!request.apiKey) {
    throw new DomainError('UNAUTHENTICATED', apiKeyMessages.missingKey);
  }
  return request.apiKey;
}
