import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isWebRoute } from '@bytegate/contracts/routes';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface WebApp {
  /** Answers a path no route took: the app's page, with 404 for paths the app does not have. */
  sendPage(pathname: string, reply: FastifyReply): FastifyReply;
}

/**
 * Serves the built web app from `distDir`: hashed assets from disk with long caching, and the
 * single-page shell for its routes. Answers null when the app has not been built.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<WebApp | null> {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    return null;
  }
  const indexHtml = readFileSync(indexPath, 'utf8');
  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    wildcard: false,
    setHeaders(res, path) {
      // Vite fingerprints everything under assets/, so it may be cached for good.
      const isFingerprinted = path.includes(`${join(distDir, 'assets')}`);
      res.setHeader(
        'cache-control',
        isFingerprinted ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    },
  });
  return {
    sendPage(pathname, reply) {
      return reply
        .status(isWebRoute(pathname) ? 200 : 404)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(indexHtml);
    },
  };
}
