import { PRODUCT_NAME } from '@bytegate/contracts/constants';
import { documentTitle, type PageHead, structuredData } from './page-head.ts';

/** A `<meta>` or `<link>` of a page's head. */
export interface HeadTag {
  tag: 'meta' | 'link';
  attrs: Record<string, string>;
}

/** The link preview image (public/og-image.png, drawn from build/og-image.html). */
export const SOCIAL_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const;

/** Marks the tags a page owns, so moving to another page replaces exactly them. */
export const PAGE_HEAD_ATTR = 'data-page-head';

/** Description, canonical link, robots, Open Graph and Twitter tags of a page at `origin`. */
export function headTags(head: PageHead, origin: string): HeadTag[] {
  const title = documentTitle(head);
  const canonical = head.canonicalPath ? `${origin}${head.canonicalPath}` : null;
  const meta = (key: 'name' | 'property', name: string, content: string): HeadTag => ({
    tag: 'meta',
    attrs: { [key]: name, content },
  });
  const tags: HeadTag[] = [meta('name', 'description', head.description)];
  if (canonical) {
    tags.push({ tag: 'link', attrs: { rel: 'canonical', href: canonical } });
  } else {
    tags.push(meta('name', 'robots', 'noindex'));
  }
  tags.push(
    meta('property', 'og:type', head.type),
    meta('property', 'og:site_name', PRODUCT_NAME),
    meta('property', 'og:locale', 'en_US'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', head.description),
  );
  if (canonical) {
    tags.push(meta('property', 'og:url', canonical));
  }
  const image = `${origin}${SOCIAL_IMAGE.path}`;
  const imageAlt = `${PRODUCT_NAME}: residential, mobile and datacenter proxies, billed by the gigabyte`;
  tags.push(
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', String(SOCIAL_IMAGE.width)),
    meta('property', 'og:image:height', String(SOCIAL_IMAGE.height)),
    meta('property', 'og:image:alt', imageAlt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', image),
    meta('name', 'twitter:image:alt', imageAlt),
  );
  return tags;
}

const escapeAttr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** JSON inside a script element: '<' escaped so no text can close the element. */
const scriptJson = (value: object) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page's `<title>`, tags and structured data as HTML, for the prerendered document. */
export function renderHead(head: PageHead, origin: string): string {
  const lines = [`<title>${escapeAttr(documentTitle(head))}</title>`];
  for (const { tag, attrs } of headTags(head, origin)) {
    const attributes = Object.entries(attrs)
      .map(([name, value]) => `${name}="${escapeAttr(value)}"`)
      .join(' ');
    lines.push(`<${tag} ${attributes} ${PAGE_HEAD_ATTR} />`);
  }
  for (const data of structuredData(head, origin)) {
    lines.push(`<script type="application/ld+json" ${PAGE_HEAD_ATTR}>${scriptJson(data)}</script>`);
  }
  return lines.join('\n    ');
}

/** Puts the page's head into the live document when the app moves to it. */
export function applyHead(doc: Document, head: PageHead, origin: string): void {
  doc.title = documentTitle(head);
  for (const element of doc.head.querySelectorAll(`[${PAGE_HEAD_ATTR}]`)) {
    element.remove();
  }
  for (const { tag, attrs } of headTags(head, origin)) {
    const element = doc.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      element.setAttribute(name, value);
    }
    element.setAttribute(PAGE_HEAD_ATTR, '');
    doc.head.append(element);
  }
  for (const data of structuredData(head, origin)) {
    const script = doc.createElement('script');
    script.type = 'application/ld+json';
    script.textContent = JSON.stringify(data);
    script.setAttribute(PAGE_HEAD_ATTR, '');
    doc.head.append(script);
  }
}
