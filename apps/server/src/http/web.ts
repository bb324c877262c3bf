import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { isWebRoute, PRERENDER_ORIGIN } from '@bytegate/contracts/routes';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface WebApp {
  /** Answers a GET or HEAD of a path no route took: its page, with 404 for paths the app does not have. */
  sendPage(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

export interface WebAppOptions {
  /** The web build: `public` (the browser's files), `pages` (prerendered HTML, sitemap, robots). */
  distDir: string;
  /** The site's origin for canonical links, social tags, structured data and the sitemap. */
  publicUrl: string;
}

/**
 * A document kept in memory with its ETag; its gzip and brotli forms are made on first request and kept
 * (brotli at its best quality costs about 0.5 s for all the pages, which start-up need not pay).
 */
class Document {
  readonly raw: Buffer;
  readonly etag: string;
  private gzipped: Buffer | undefined;
  private brotlied: Buffer | undefined;

  constructor(
    text: string,
    readonly type: string,
  ) {
    this.raw = Buffer.from(text);
    this.etag = `"${createHash('sha256').update(this.raw).digest('base64url').slice(0, 22)}"`;
  }

  get gzip(): Buffer {
    this.gzipped ??= gzipSync(this.raw, { level: 9 });
    return this.gzipped;
  }

  get brotli(): Buffer {
    this.brotlied ??= brotliCompressSync(this.raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
    return this.brotlied;
  }
}

const document = (text: string, type: string) => new Document(text, type);

/** Every file under `dir`, as paths relative to it with forward slashes. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** The route a prerendered file answers: index.html is '/', help/targeting.html '/help/targeting'. */
const routeOf = (file: string) => (file === 'index.html' ? '/' : `/${file.replace(/\.html$/, '')}`);

function send(request: FastifyRequest, reply: FastifyReply, doc: Document, status = 200): FastifyReply {
  reply
    .status(status)
    .header('content-type', doc.type)
    .header('cache-control', 'no-cache')
    .header('etag', doc.etag)
    .header('vary', 'accept-encoding');
  if (status === 200 && request.headers['if-none-match'] === doc.etag) {
    return reply.status(304).send();
  }
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) {
    return reply.header('content-encoding', 'br').send(doc.brotli);
  }
  if (/\bgzip\b/.test(accepted)) {
    return reply.header('content-encoding', 'gzip').send(doc.gzip);
  }
  return reply.send(doc.raw);
}

/**
 * Serves the built web app: fingerprinted assets from disk with long caching (and their precompressed
 * .br/.gz twins), each public page as the HTML prerendered for it, the dashboard's empty shell, the 404
 * page with status 404, sitemap.xml and robots.txt. The build's placeholder origin becomes `publicUrl`.
 * Answers null when the app has not been built.
 */
export async function registerWebApp(
  app: FastifyInstance,
  { distDir, publicUrl }: WebAppOptions,
): Promise<WebApp | null> {
  const publicDir = join(distDir, 'public');
  const pagesDir = join(distDir, 'pages');
  const shellPath = join(publicDir, 'index.html');
  if (!existsSync(shellPath)) {
    return null;
  }
  const withOrigin = (text: string) => text.replaceAll(PRERENDER_ORIGIN, publicUrl);
  const shell = document(readFileSync(shellPath, 'utf8'), 'text/html; charset=utf-8');
  const pages = new Map<string, Document>();
  let notFound = shell;
  for (const file of filesUnder(pagesDir)) {
    const text = withOrigin(readFileSync(join(pagesDir, file), 'utf8'));
    if (file === '404.html') {
      notFound = document(text, 'text/html; charset=utf-8');
    } else if (file === 'sitemap.xml') {
      const sitemap = document(text, 'application/xml; charset=utf-8');
      app.get('/sitemap.xml', (request, reply) => send(request, reply, sitemap));
    } else if (file === 'robots.txt') {
      const robots = document(text, 'text/plain; charset=utf-8');
      app.get('/robots.txt', (request, reply) => send(request, reply, robots));
    } else if (file.endsWith('.html')) {
      pages.set(routeOf(file), document(text, 'text/html; charset=utf-8'));
    }
  }

  await app.register(fastifyStatic, {
    root: publicDir,
    index: false,
    wildcard: false,
    preCompressed: true,
    setHeaders(res, path) {
      // Vite fingerprints everything under assets/, so it may be cached for good.
      const isFingerprinted = path.includes(`${join(publicDir, 'assets')}`);
      res.setHeader(
        'cache-control',
        isFingerprinted ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    },
  });

  return {
    sendPage(request, reply) {
      const [pathname = '/', query] = request.url.split('?', 2);
      const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
      if (normalized !== pathname && isWebRoute(normalized)) {
        // One address per page: /help/ is /help.
        return reply.redirect(query === undefined ? normalized : `${normalized}?${query}`, 301);
      }
      const page = pages.get(normalized);
      if (page) {
        return send(request, reply, page);
      }
      return isWebRoute(normalized) ? send(request, reply, shell) : send(request, reply, notFound, 404);
    },
  };
}
