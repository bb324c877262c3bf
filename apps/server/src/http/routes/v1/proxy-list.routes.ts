import {
  buildProxyList,
  type GatewayEndpoints,
  maxListQuantity,
  PROXY_LIST_FORMATS,
  type ProxyListFormat,
  randomSessionIds,
} from '@bytegate/contracts/proxy-list';
import { getOwnProxyUser, listActivePlans } from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import { DomainError } from '../../../services/domain-error.ts';
import { toCsv } from '../../../services/export/csv.ts';
import { errorResponseSchema } from '../errors.ts';
import { getApiKey } from './api-key-auth.ts';
import { idField, knownId, V1_ERRORS, V1_SECURITY } from './v1-shapes.ts';

const FORMAT_IDS = PROXY_LIST_FORMATS.map((format) => format.id) as [ProxyListFormat, ...ProxyListFormat[]];

const listQuerySchema = z.object({
  format: z
    .enum(FORMAT_IDS, { error: `format must be one of ${FORMAT_IDS.join(', ')}.` })
    .default('host:port:user:pass'),
  protocol: z.enum(['http', 'socks5'], { error: 'protocol must be http or socks5.' }).default('http'),
  session: z
    .enum(['rotating', 'sticky'], { error: 'session must be rotating or sticky.' })
    .default('rotating'),
  host: z.enum(['dns', 'ip'], { error: 'host must be dns or ip.' }).default('dns'),
  quantity: z.coerce
    .number({ error: 'quantity must be a whole number of 1 or more.' })
    .int('quantity must be a whole number of 1 or more.')
    .min(1, 'quantity must be a whole number of 1 or more.')
    .default(10),
  output: z.enum(['txt', 'csv', 'json'], { error: 'output must be txt, csv or json.' }).default('txt'),
  /** One of the plan's proxy users: its login and password in the lines instead of the plan's. */
  proxy_user_id: idField('proxy_user_id').optional(),
});

/**
 * A plan's proxy list in the six formats the dashboard offers, as text (one line each), CSV (the line
 * and its parts) or JSON: the same lines Proxy Setup builds (`@bytegate/contracts/proxy-list`).
 */
export const v1ProxyListRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/plans/:id/proxy-list',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['public API v1'],
        summary: "A plan's proxy list in one of the six formats, as txt, csv or json",
        description:
          'Scope `read`. Rotating lines each carry their own `sessid`, so tools spreading work over lines get ' +
          'distinct IPs; sticky lines each use their own sticky port. `quantity` is at most 1000 rotating, or the ' +
          'number of sticky ports. `host=ip` uses the gateway address instead of its name, where one is set. ' +
          'With `proxy_user_id`, the lines carry that proxy user’s login and password.',
        security: V1_SECURITY,
        params: z.object({ id: idField('Plan id') }),
        querystring: listQuerySchema,
        response: {
          200: z.union([
            z.string(),
            z.object({
              plan_id: z.string(),
              format: z.string(),
              lines: z.array(
                z.object({
                  line: z.string(),
                  host: z.string(),
                  port: z.number().int(),
                  username: z.string().nullable(),
                  password: z.string().nullable(),
                }),
              ),
            }),
          ]),
          400: errorResponseSchema,
          404: errorResponseSchema,
          ...V1_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const { user } = getApiKey(request);
      const query = request.query;
      const plan = (await listActivePlans(ctx.db, { userId: user.id })).find(
        (row) => row.id === knownId(request.params.id, 'No such plan'),
      );
      if (!plan) {
        throw new DomainError('NOT_FOUND', 'No such plan');
      }
      const credentials = { login: plan.login, password: plan.password };
      if (query.proxy_user_id !== undefined) {
        const found = await getOwnProxyUser(ctx.db, {
          userId: user.id,
          proxyUserId: knownId(query.proxy_user_id, 'No such proxy user'),
        });
        if (!found || found.proxyUser.planId !== plan.id) {
          throw new DomainError('NOT_FOUND', 'No such proxy user');
        }
        credentials.login = found.proxyUser.login;
        credentials.password = found.proxyUser.password;
      }
      const { gateway } = ctx.config;
      if (query.host === 'ip' && !gateway.ip) {
        throw new DomainError('VALIDATION_FAILED', 'This gateway has no published IP address: use host=dns.');
      }
      const endpoints: GatewayEndpoints = {
        host: query.host === 'ip' ? (gateway.ip as string) : gateway.host,
        httpPort: gateway.httpPort,
        socksPort: gateway.socksPort,
        stickyPorts: gateway.stickyPorts,
      };
      const most = maxListQuantity(endpoints, query.session);
      if (query.quantity > most) {
        throw new DomainError(
          'VALIDATION_FAILED',
          `quantity must be at most ${most} for a ${query.session} list.`,
        );
      }
      const isAllowlist = query.format === 'host:port';
      const isRotating = query.session === 'rotating';
      // Drawn here, so the JSON and CSV parts name the same session ids the lines carry.
      const ids = isRotating && !isAllowlist ? randomSessionIds(query.quantity) : [];
      const lines = buildProxyList({
        endpoints,
        credentials,
        protocol: query.protocol,
        session: query.session,
        format: query.format,
        quantity: query.quantity,
        sessionIds: () => ids,
      });
      if (query.output === 'txt') {
        return reply.type('text/plain; charset=utf-8').send(`${lines.join('\n')}\n`);
      }
      const rotatingPort = query.protocol === 'http' ? endpoints.httpPort : endpoints.socksPort;
      const parts = lines.map((line, i) => ({
        line,
        host: endpoints.host,
        port: isRotating ? rotatingPort : endpoints.stickyPorts.first + i,
        username: isAllowlist
          ? null
          : isRotating
            ? `${credentials.login}__sessid.${ids[i]}`
            : credentials.login,
        password: isAllowlist ? null : credentials.password,
      }));
      if (query.output === 'json') {
        return { plan_id: plan.id, format: query.format, lines: parts };
      }
      const csv = toCsv(
        ['line', 'host', 'port', 'username', 'password'],
        parts.map((part) => [part.line, part.host, part.port, part.username ?? '', part.password ?? '']),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="bytegate-${plan.poolType}-${query.session}-${query.protocol}.csv"`,
        )
        .send(csv);
    },
  );
};
