import { PRODUCT_NAME } from '@bytegate/contracts/constants';
import { ACCOUNT_LINK_PAGES, isWebRoute } from '@bytegate/contracts/routes';
import { HELP_ENTRIES } from '../features/help/articles.ts';

/** One step of a page's breadcrumb trail; the last step is the page itself and has no link. */
export interface Crumb {
  label: string;
  to?: string;
}

/** What a public page says about itself in `<head>`: for browsers' tabs, search engines and link previews. */
export interface PageHead {
  /** The page's own name; the document title is '<title> | Bytegate'. */
  title: string;
  description: string;
  /** The canonical path ('/help'), or null for a page that should not be indexed (404). */
  canonicalPath: string | null;
  /** Open Graph type: the articles are 'article', the rest 'website'. */
  type: 'website' | 'article';
  /** Where the page sits, for the visible breadcrumbs and the BreadcrumbList structured data. */
  breadcrumbs: Crumb[] | null;
  /** Whether the page belongs in sitemap.xml. */
  isListed: boolean;
}

const HOME: Crumb = { label: 'Home', to: '/' };
const HELP_CENTER: Crumb = { label: 'Help Center', to: '/help' };

function page(
  path: string,
  title: string,
  description: string,
  options: Partial<Pick<PageHead, 'breadcrumbs' | 'isListed'>> = {},
): [string, PageHead] {
  return [
    path,
    {
      title,
      description,
      canonicalPath: path,
      type: 'website',
      breadcrumbs: options.breadcrumbs ?? null,
      isListed: options.isListed ?? true,
    },
  ];
}

/** A page only a link in a mail leads to: never indexed (no canonical link, robots noindex), never listed. */
function noindexPage(path: string, title: string, description: string): [string, PageHead] {
  const [, head] = page(path, title, description, { isListed: false });
  return [path, { ...head, canonicalPath: null }];
}

const heads = new Map<string, PageHead>([
  page(
    '/',
    'Pay-per-GB Residential, Mobile and Datacenter Proxies',
    'Datacenter, residential and mobile proxies billed per gigabyte: over 20 million IPs in 195 countries, 99.9% uptime, traffic that never expires and 24/7 support.',
  ),
  page(
    '/locations',
    'Proxies by Location',
    'Residential, mobile, datacenter and premium residential proxies by country: over 843,000 IPs active right now, targeted by country, state, city, ZIP and ASN.',
  ),
  page(
    '/contact',
    'Contact',
    'Talk to Bytegate: sales, enterprise pricing, unblocking a site or port, more threads, or help with a connection. 24/7 support and a 7-day money-back guarantee.',
  ),
  page(
    '/privacy',
    'Privacy Policy',
    'What Bytegate collects, why, how long it is kept (connection logs up to 30 days) and the choices you have.',
  ),
  page(
    '/terms',
    'Terms of Service',
    "The terms for using Bytegate's proxies: accounts, balance and traffic, refunds, acceptable use and the regions the service is not offered in.",
  ),
  page(
    '/help',
    'Help Center',
    'Guides for Bytegate proxies: getting started, ports and protocols, rotating and sticky sessions, targeting by country, state, city, ZIP and ASN, code examples and troubleshooting.',
    { breadcrumbs: [HOME, { label: 'Help Center' }] },
  ),
  page(
    '/login',
    'Sign In',
    'Sign in to your Bytegate dashboard to manage proxy plans, targeting and billing.',
    {
      isListed: false,
    },
  ),
  page(
    '/signup',
    'Create Account',
    'Create a Bytegate account: buy residential, mobile and datacenter proxy traffic by the gigabyte, paid with cryptocurrency.',
    { isListed: false },
  ),
  ...[
    noindexPage(
      ACCOUNT_LINK_PAGES.forgotPassword,
      'Reset Your Password',
      'Forgot your Bytegate password? Enter the email of your account and we will send you a link to choose a new one.',
    ),
    noindexPage(
      ACCOUNT_LINK_PAGES.resetPassword,
      'Choose a New Password',
      'Set a new password for your Bytegate account with the link we emailed you, then sign in with it.',
    ),
    noindexPage(
      ACCOUNT_LINK_PAGES.verifyEmail,
      'Verify Your Email',
      'Confirm the email address of your Bytegate account with the link we emailed you.',
    ),
    noindexPage(
      ACCOUNT_LINK_PAGES.signInLink,
      'Sign In With Your Link',
      'Sign in to your Bytegate account with the one-time link we emailed you while sign-ins were paused.',
    ),
  ],
  ...HELP_ENTRIES.map((entry) => {
    const [path, head] = page(entry.path, entry.title, entry.description, {
      breadcrumbs: [HOME, HELP_CENTER, { label: entry.title }],
    });
    return [path, { ...head, type: 'article' as const }] as [string, PageHead];
  }),
]);

/** The head of the page any unknown path shows. */
export const NOT_FOUND_HEAD: PageHead = {
  title: 'Page not found',
  description: 'The page you are looking for does not exist or has moved.',
  canonicalPath: null,
  type: 'website',
  breadcrumbs: null,
  isListed: false,
};

/** Public pages, in the order sitemap.xml and the prerenderer list them. */
export const PUBLIC_PAGE_PATHS: readonly string[] = [...heads.keys()];

/** Where the staff console lives: the app shell, never prerendered or listed (issue 15). */
export const CONSOLE_PATH = '/admin';

/** Whether a path is the console's ('/admin', '/admin/customers/…'). */
export function isConsolePath(pathname: string): boolean {
  return pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`);
}

/**
 * The head of the page at `pathname`: a public page's own, the 404 page's for a path the app does not
 * have, and null for the signed-in dashboard and the staff console (which name their own pages, and the
 * console marks itself noindex).
 */
export function pageHeadFor(pathname: string): PageHead | null {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const head = heads.get(normalized);
  if (head) {
    return head;
  }
  return isWebRoute(normalized) || isConsolePath(normalized) ? null : NOT_FOUND_HEAD;
}

export function documentTitle(head: PageHead): string {
  return `${head.title} | ${PRODUCT_NAME}`;
}

/** The page's structured data (schema.org, JSON-LD): TechArticle and BreadcrumbList for the guides. */
export function structuredData(head: PageHead, origin: string): object[] {
  const url = (path: string) => `${origin}${path === '/' ? '/' : path}`;
  const data: object[] = [];
  if (head.type === 'article' && head.canonicalPath) {
    data.push({
      '@context': 'https://schema.org',
      '@type': 'TechArticle',
      headline: head.title,
      description: head.description,
      url: url(head.canonicalPath),
      mainEntityOfPage: url(head.canonicalPath),
      inLanguage: 'en',
      isPartOf: { '@type': 'WebSite', name: `${PRODUCT_NAME} Help Center`, url: url('/help') },
      author: { '@type': 'Organization', name: PRODUCT_NAME, url: url('/') },
      publisher: { '@type': 'Organization', name: PRODUCT_NAME, url: url('/') },
    });
  }
  if (head.breadcrumbs && head.canonicalPath) {
    const canonical = head.canonicalPath;
    data.push({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: head.breadcrumbs.map((crumb, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: crumb.label,
        item: url(crumb.to ?? canonical),
      })),
    });
  }
  return data;
}
