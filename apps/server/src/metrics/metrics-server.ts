import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';
import { hasMetricsToken } from './metrics-access.ts';

/**
 * Another route of the small server: answers whether it handled the request (health's
 * `handleHealthRequest(req, res, probe)` has this shape, for /healthz and /readyz).
 */
export type OpsHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  metrics: Metrics;
  /** When set, /metrics asks for `Authorization: Bearer <token>` here too. */
  token?: string | undefined;
  /** Tried in order for every path but /metrics; none handling it is a 404. */
  handlers?: readonly OpsHandler[];
}

/**
 * The small HTTP server of `METRICS_PORT` (node:http, no framework): /metrics for Prometheus, in every
 * process, the gateway-only ones without the HTTP API included, and whatever `handlers` add.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { metrics, token, handlers = [] } = options;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      if (!handlers.some((handle) => handle(req, res))) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      }
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('GET only\n');
      return;
    }
    if (token !== undefined && !hasMetricsToken(req.headers.authorization, token)) {
      res
        .writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' })
        .end('the metrics bearer token (METRICS_TOKEN) is required\n');
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) =>
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
