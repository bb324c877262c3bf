import { ACCOUNT_LINK_PAGES, HELP_ARTICLE_PATHS } from '@bytegate/contracts/routes';

/** Every public page, and a path that is none (the 404 page), for the suites that check them all. */
export const PUBLIC_PAGES = [
  '/',
  '/locations',
  '/contact',
  '/privacy',
  '/terms',
  '/help',
  ...HELP_ARTICLE_PATHS,
  '/login',
  '/signup',
  ...Object.values(ACCOUNT_LINK_PAGES),
  '/no/such/page',
];

/** Every dashboard section: its sidebar label and the heading it shows. */
export const DASHBOARD_SECTIONS = [
  { label: 'Dashboard', heading: 'Dashboard' },
  { label: 'Plans & Pricing', heading: 'Plans & Pricing' },
  { label: 'Orders', heading: 'Orders' },
  { label: 'Top-up', heading: 'Top Up Balance' },
  { label: 'Proxy Setup', heading: 'Proxy Setup' },
  { label: 'Proxy Settings', heading: 'Proxy Settings' },
  { label: 'User Settings', heading: 'Account Settings' },
  { label: 'Statistics', heading: 'Statistics' },
];
