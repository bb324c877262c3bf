// What a crawler (or a visitor without JavaScript) gets: each public page's HTML as the server sends it.
import { gunzipSync } from 'node:zlib';
import { type HTMLElement, parse } from 'node-html-parser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerAndBrowser } from './support/fixture.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;

// The site's public origin, as an operator sets it: every absolute link in the pages must use it.
const PUBLIC_URL = 'https://proxies.example.com';

let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser({ PUBLIC_URL }));
});
afterAll(() => stop?.());

const articles: Array<[string, string]> = [
  ['/help/getting-started', 'Getting Started'],
  ['/help/proxy-settings', 'Proxy Settings'],
  ['/help/proxy-types', 'Proxy Types'],
  ['/help/benefits-best-practices', 'Benefits & Best Practices'],
  ['/help/troubleshooting', 'Troubleshooting'],
  ['/help/tutorials/simpleproxy', 'Browser Extension'],
  ['/help/tutorials/axios', 'Axios and Node.js'],
  ['/help/tutorials/python', 'Python requests'],
  ['/help/tutorials/browsers', 'Headless browsers'],
  ['/help/blocked-websites', 'Blocked Websites'],
  ['/help/port-access', 'Port Access'],
  ['/help/connection-types', 'Connection Types'],
  ['/help/protocols', 'Protocols'],
  ['/help/connection-hosts', 'Connection Hosts'],
  ['/help/targeting', 'Targeting'],
  ['/help/targeting/default-targeting', 'Default Targeting'],
  ['/help/targeting/target-filters', 'Target Filters'],
  ['/help/threads', 'Threads'],
  ['/help/api', 'Automate with the API'],
  ['/help/two-factor-authentication', 'Two-factor authentication'],
  ['/help/notifications', 'Notifications, alerts and auto-buy'],
  ['/help/webhooks', 'Webhooks'],
];

/** `inSite`: under the site's header and footer (sign-in and sign-up have a page of their own). */
const pages: Array<{ path: string; title: string; heading: string; inSite?: false }> = [
  {
    path: '/',
    title: 'Pay-per-GB Residential, Mobile and Datacenter Proxies',
    heading: 'Proxies billed by the gigabyte. Traffic that never expires.',
  },
  { path: '/locations', title: 'Proxies by Location', heading: 'Proxies by Location' },
  { path: '/contact', title: 'Contact', heading: 'Contact' },
  { path: '/privacy', title: 'Privacy Policy', heading: 'Privacy Policy' },
  { path: '/terms', title: 'Terms of Service', heading: 'Terms of Service' },
  { path: '/help', title: 'Help Center', heading: 'Help Center' },
  { path: '/login', title: 'Sign In', heading: 'Sign in to Bytegate', inSite: false },
  { path: '/signup', title: 'Create Account', heading: 'Create your account', inSite: false },
  ...articles.map(([path, title]) => ({ path, title, heading: title })),
];

async function fetchHtml(path: string): Promise<{ status: number; document: HTMLElement }> {
  const response = await fetch(`${server.url}${path}`);
  expect(response.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
  return { status: response.status, document: parse(await response.text()) };
}

const meta = (document: HTMLElement, attr: 'name' | 'property', key: string) =>
  document.querySelector(`meta[${attr}="${key}"]`)?.getAttribute('content');

describe('the prerendered public pages', () => {
  it('carry their title, description, canonical link, social tags and main heading in the HTML itself', async () => {
    const descriptions = new Set<string>();
    for (const { path, title, heading, inSite } of pages) {
      const { status, document } = await fetchHtml(path);
      expect(status, path).toBe(200);
      const fullTitle = `${title} | Bytegate`;
      expect(document.querySelector('title')?.text, path).toBe(fullTitle);
      const description = meta(document, 'name', 'description') ?? '';
      expect(description.length, `${path} description`).toBeGreaterThan(40);
      descriptions.add(description);
      const canonical = `${PUBLIC_URL}${path}`;
      expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href'), path).toBe(canonical);
      expect(meta(document, 'property', 'og:title'), path).toBe(fullTitle);
      expect(meta(document, 'property', 'og:description'), path).toBe(description);
      expect(meta(document, 'property', 'og:url'), path).toBe(canonical);
      expect(meta(document, 'name', 'twitter:card'), path).toBe('summary_large_image');
      expect(meta(document, 'property', 'og:image'), path).toBe(`${PUBLIC_URL}/og-image.png`);
      expect(meta(document, 'name', 'twitter:image'), path).toBe(`${PUBLIC_URL}/og-image.png`);
      expect(meta(document, 'name', 'twitter:title'), path).toBe(fullTitle);
      const h1s = document.querySelectorAll('h1');
      expect(
        h1s.map((h1) => h1.text),
        path,
      ).toEqual([heading]);
      // The page is there without JavaScript: the header, its main content and the footer.
      if (inSite !== false) {
        expect(document.querySelector('#root header nav[aria-label="Main"]'), path).not.toBeNull();
        expect(document.querySelector('#root main'), path).not.toBeNull();
        expect(document.querySelector('#root footer'), path).not.toBeNull();
      }
      expect(document.querySelector('[role="status"]'), `${path} shows no loading state`).toBeNull();
      expect(document.toString(), path).not.toContain('prerender.bytegate.invalid');
    }
    expect(descriptions.size, 'every page describes itself').toBe(pages.length);
    // The preview image is served, at the size the tags declare.
    const image = await fetch(`${server.url}/og-image.png`);
    expect(image.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await image.arrayBuffer());
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it('carry the whole article, and TechArticle and BreadcrumbList structured data, for each guide', async () => {
    for (const [path, title] of articles) {
      const { document } = await fetchHtml(path);
      const body = document.querySelector('article .prose');
      expect(body?.querySelectorAll('h2').length, path).toBeGreaterThan(0);
      const outline = document.querySelectorAll('nav[aria-label="On this page"] a');
      expect(outline.length, path).toBeGreaterThan(0);
      for (const link of outline) {
        const id = link.getAttribute('href')?.slice(1) ?? '';
        expect(document.getElementById(id), `${path} ${id}`).not.toBeNull();
      }
      const data = document
        .querySelectorAll('script[type="application/ld+json"]')
        .map((script) => JSON.parse(script.text) as Record<string, unknown>);
      const article = data.find((item) => item['@type'] === 'TechArticle');
      expect(article, path).toMatchObject({
        '@context': 'https://schema.org',
        headline: title,
        description: meta(document, 'name', 'description'),
        url: `${PUBLIC_URL}${path}`,
        publisher: { '@type': 'Organization', name: 'Bytegate' },
      });
      const breadcrumbs = data.find((item) => item['@type'] === 'BreadcrumbList');
      expect(breadcrumbs?.itemListElement, path).toEqual([
        { '@type': 'ListItem', position: 1, name: 'Home', item: `${PUBLIC_URL}/` },
        { '@type': 'ListItem', position: 2, name: 'Help Center', item: `${PUBLIC_URL}/help` },
        { '@type': 'ListItem', position: 3, name: title, item: `${PUBLIC_URL}${path}` },
      ]);
      const visible = document.querySelectorAll('nav[aria-label="Breadcrumb"] li').map((li) => li.text);
      expect(visible, path).toEqual(['Home', 'Help Center', title]);
    }
  });

  it('answers an unknown path with the 404 page, status 404, marked noindex', async () => {
    const { status, document } = await fetchHtml('/no/such/page');
    expect(status).toBe(404);
    expect(document.querySelector('title')?.text).toBe('Page not found | Bytegate');
    expect(document.querySelector('h1')?.text).toBe('Oops! Page not found');
    expect(meta(document, 'name', 'robots')).toBe('noindex');
    expect(document.querySelector('link[rel="canonical"]')).toBeNull();
    expect(document.querySelector('a[href="/"]')?.text).toBeDefined();
  });

  it('prerenders the pages of mailed links, marked noindex and left out of the sitemap', async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    for (const [path, title, heading] of [
      ['/forgot-password', 'Reset Your Password', 'Reset your password'],
      ['/reset-password', 'Choose a New Password', 'Choose a new password'],
      ['/verify-email', 'Verify Your Email', 'Verify your email'],
    ] as const) {
      // A link carries its token in the query: the page is the same.
      const { status, document } = await fetchHtml(`${path}?token=${'a'.repeat(43)}`);
      expect(status, path).toBe(200);
      expect(document.querySelector('title')?.text, path).toBe(`${title} | Bytegate`);
      expect(meta(document, 'name', 'robots'), path).toBe('noindex');
      expect(document.querySelector('link[rel="canonical"]'), path).toBeNull();
      expect(
        document.querySelectorAll('h1').map((h1) => h1.text),
        path,
      ).toEqual([heading]);
      expect(sitemap, path).not.toContain(path);
    }
  });

  it('serves the dashboard as the app shell, not as a prerendered page', async () => {
    const { status, document } = await fetchHtml('/dashboard');
    expect(status).toBe(200);
    expect(document.querySelector('#root')?.childNodes.length).toBe(0);
  });

  it('sends one address per page, compressed, and revalidates with an ETag', async () => {
    const slash = await fetch(`${server.url}/help/?from=mail`, { redirect: 'manual' });
    expect(slash.status).toBe(301);
    expect(slash.headers.get('location')).toBe('/help?from=mail');

    // HEAD (link checkers, uptime monitors) answers as GET does, without the body.
    const head = await fetch(`${server.url}/help`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await fetch(`${server.url}/nope`, { method: 'HEAD' })).status).toBe(404);

    const first = await fetch(`${server.url}/locations`, { headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.url}/locations`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    // Brotli where the client takes it (made on the first request for the page), decoding to the same page.
    const plain = await (
      await fetch(`${server.url}/terms`, { headers: { 'accept-encoding': 'identity' } })
    ).text();
    for (let i = 0; i < 2; i++) {
      const brotli = await fetch(`${server.url}/terms`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(brotli.headers.get('content-encoding')).toBe('br');
      expect(await brotli.text()).toBe(plain);
    }

    const html = await (await fetch(`${server.url}/`)).text();
    const script = html.match(/<script type="module" crossorigin src="([^"]+)"/)?.[1] ?? '';
    const raw = Buffer.from(await (await fetch(`${server.url}${script}`)).arrayBuffer());
    // undici decodes what it asked for, so the encoded bytes are read with a plain request.
    const { request } = await import('node:http');
    const gzipped = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      request(`${server.url}${script}`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    });
    expect(gzipped.encoding).toBe('gzip');
    expect(gzipped.body.length).toBeLessThan(raw.length / 2);
    expect(gunzipSync(gzipped.body).equals(raw)).toBe(true);
  });

  it('publishes a sitemap of every public page and a robots.txt that points to it', async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toContain('User-agent: *');
    expect(robots).toContain('Disallow: /dashboard');
    expect(robots).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);

    const response = await fetch(`${server.url}/sitemap.xml`);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const locations = [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    const listed = pages.map((page) => page.path).filter((path) => path !== '/login' && path !== '/signup');
    expect(locations.sort()).toEqual(listed.map((path) => `${PUBLIC_URL}${path}`).sort());
  });

  // Every public page twice (without JavaScript, then hydrated and navigated from): a few seconds a page
  // on a slow 2-core machine with another browser suite beside it.
  it('shows the page without JavaScript, and hydrates it without a mismatch', {
    timeout: 180_000,
  }, async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    for (const { path, heading } of pages) {
      await page.goto(`${server.url}${path}`);
      expect(await page.getByRole('heading', { level: 1 }).innerText(), path).toBe(heading);
    }
    await noScript.close();

    const context = await browser.newContext();
    const live = await context.newPage();
    const problems: string[] = [];
    live.on('console', (message) => {
      if (message.type() === 'error') {
        problems.push(message.text());
      }
    });
    live.on('pageerror', (error) => problems.push(error.message));
    for (const { path } of pages) {
      await live.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      // Hydrated: React answers a click on a link inside the app, without a page load.
      await live.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });
      const [link, heading, next, title] =
        path === '/login'
          ? ['Create an account', 'Create your account', '/signup', 'Create Account']
          : path === '/signup'
            ? ['Terms of Service', 'Terms of Service', '/terms', 'Terms of Service']
            : ['Privacy Policy', 'Privacy Policy', '/privacy', 'Privacy Policy'];
      await live.getByRole('link', { name: link, exact: true }).first().click();
      await live.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(
        await live.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
        path,
      ).toBe(true);
      // Moving inside the app carries the new page's head: one canonical link, the site's origin kept.
      const head = await live.evaluate(() => ({
        canonicals: Array.from(document.querySelectorAll('link[rel="canonical"]'), (link) =>
          link.getAttribute('href'),
        ),
        descriptions: document.querySelectorAll('meta[name="description"]').length,
      }));
      expect(head.canonicals, path).toEqual([`${PUBLIC_URL}${next}`]);
      expect(head.descriptions, path).toBe(1);
      expect(await live.title(), path).toBe(`${title} | Bytegate`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
