// The prerenderer's entry (built with `vite build --ssr`): renders each public page to HTML at build time.
import { PRERENDER_ORIGIN } from '@bytegate/contracts/routes';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders, routes } from './app.tsx';
import { renderHead } from './seo/head-tags.ts';
import { NOT_FOUND_HEAD, type PageHead, PUBLIC_PAGE_PATHS, pageHeadFor } from './seo/page-head.ts';
import { fillTemplate } from './seo/template.ts';

/** Where a page's HTML goes under the pages folder: '/' is index.html, '/help/targeting' help/targeting.html. */
export const NOT_FOUND_FILE = '404.html';
export const pageFile = (path: string) => (path === '/' ? 'index.html' : `${path.slice(1)}.html`);

/** The app's HTML at `pathname`, once everything it loads (lazy pages, articles) has arrived. */
async function renderApp(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`${PRERENDER_ORIGIN}${pathname}`));
  if (context instanceof Response) {
    throw new Error(`Prerendering ${pathname} answered a redirect or response (${context.status})`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
    {
      // Whole pages inline: no boundary is sent as a fallback with its content in a script to swap in.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError(error) {
        throw error;
      },
    },
  );
  return new Response(prelude).text();
}

export interface PrerenderedFile {
  /** Its path under dist/pages. */
  file: string;
  /** Its text, with PRERENDER_ORIGIN where the site's origin goes. */
  text: string;
}

const url = (path: string) => `${PRERENDER_ORIGIN}${path}`;

/** sitemap.xml: the pages a search engine should index. */
function sitemap(): string {
  const listed = PUBLIC_PAGE_PATHS.filter((path) => pageHeadFor(path)?.isListed);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...listed.map((path) => `  <url><loc>${url(path)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
}

/** robots.txt: crawl the site, not the signed-in dashboard or the API. */
function robots(): string {
  return [
    'User-agent: *',
    'Disallow: /dashboard',
    'Disallow: /api/',
    '',
    `Sitemap: ${url('/sitemap.xml')}`,
    '',
  ].join('\n');
}

/**
 * Every public page and the 404 page as complete documents built on the client build's index.html, with
 * sitemap.xml and robots.txt.
 */
export async function prerenderSite(template: string): Promise<PrerenderedFile[]> {
  const pages: Array<{ path: string; file: string; head: PageHead }> = PUBLIC_PAGE_PATHS.map((path) => ({
    path,
    file: pageFile(path),
    head: pageHeadFor(path) as PageHead,
  }));
  pages.push({ path: '/404', file: NOT_FOUND_FILE, head: NOT_FOUND_HEAD });
  const rendered: PrerenderedFile[] = [];
  for (const { path, file, head } of pages) {
    const body = await renderApp(path);
    rendered.push({ file, text: fillTemplate(template, renderHead(head, PRERENDER_ORIGIN), body) });
  }
  rendered.push({ file: 'sitemap.xml', text: sitemap() }, { file: 'robots.txt', text: robots() });
  return rendered;
}
