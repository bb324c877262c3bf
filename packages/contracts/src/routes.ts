/** The help articles of SPEC section 2, in the order the Help Center lists them. */
export const HELP_ARTICLE_PATHS = [
  '/help/getting-started',
  '/help/proxy-settings',
  '/help/proxy-types',
  '/help/benefits-best-practices',
  '/help/troubleshooting',
  '/help/tutorials/simpleproxy',
  '/help/tutorials/axios',
  '/help/blocked-websites',
  '/help/port-access',
  '/help/connection-types',
  '/help/protocols',
  '/help/connection-hosts',
  '/help/targeting',
  '/help/targeting/default-targeting',
  '/help/targeting/target-filters',
  '/help/threads',
  '/help/api',
  '/help/two-factor-authentication',
  '/help/notifications',
  '/help/webhooks',
  '/help/tutorials/python',
  '/help/tutorials/browsers',
] as const;

/**
 * The pages of mailed links (issue 18): asking for a password reset, and where the links lead (each
 * sends its token to the API). Public, prerendered and never indexed.
 */
export const ACCOUNT_LINK_PAGES = {
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  signInLink: '/sign-in-link',
} as const;

/** Every route the web app answers (SPEC section 2); any other path is the 404 page, with status 404. */
export const WEB_ROUTE_PATHS: readonly string[] = [
  '/',
  '/login',
  '/signup',
  ...Object.values(ACCOUNT_LINK_PAGES),
  '/dashboard',
  '/contact',
  '/privacy',
  '/terms',
  '/locations',
  '/help',
  ...HELP_ARTICLE_PATHS,
];

/** The staff console: the app's shell at `/admin` and every path under it (it picks its own page). */
export const CONSOLE_PATH = '/admin';

export function isWebRoute(pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (
    WEB_ROUTE_PATHS.includes(normalized) ||
    normalized === CONSOLE_PATH ||
    normalized.startsWith(`${CONSOLE_PATH}/`)
  );
}

/**
 * The origin the prerendered pages are built with (canonical links, Open Graph URLs, structured data);
 * the server puts its PUBLIC_URL in its place when it loads them.
 */
export const PRERENDER_ORIGIN = 'https://prerender.bytegate.invalid';
