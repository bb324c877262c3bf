import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { applyHead } from './head-tags.ts';
import { pageHeadFor } from './page-head.ts';

let siteOrigin: string | null = null;

/** The site's public origin: the prerendered page's canonical link names it (PUBLIC_URL on the server). */
function origin(): string {
  if (siteOrigin === null) {
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
    siteOrigin = canonical ? new URL(canonical).origin : window.location.origin;
  }
  return siteOrigin;
}

/** Keeps the document's title, description, canonical, social tags and structured data on the current page. */
export function usePageHead(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const head = pageHeadFor(pathname);
    if (head) {
      applyHead(document, head, origin());
    }
  }, [pathname]);
}
