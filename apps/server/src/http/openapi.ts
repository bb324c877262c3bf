import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document, generated from the route schemas, at /api/openapi.json; a reference at /api/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Bytegate API',
        version: '1.0.0',
        description:
          'The API behind the Bytegate dashboard. Programmatic clients sign in with the default `session: "token"` and send ' +
          '`Authorization: Bearer <token>`. The web app signs in with `session: "cookie"`: the session lives in an httpOnly ' +
          'cookie, and every POST, PUT, PATCH and DELETE on it sends the `csrfToken` from sign-in (or `GET /api/auth/me`) ' +
          'as `X-CSRF-Token` (else 403 `CSRF_FAILED`). ' +
          'Every error is `{ "error": "<message>", "code": "<CODE>" }`. ' +
          'The public API for automation and reselling lives under `/api/v1` and takes API keys (`Authorization: Bearer bg_live_…`) ' +
          'created in User Settings, each with its scopes (`read`, `proxy_users`, `purchase`, `billing`) and its own rate limit.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'bytegate_session' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key from User Settings → API keys (`bg_live_…`): the public API (`/api/v1`) only',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
