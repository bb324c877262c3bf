import { HELP_ARTICLE_PATHS } from '@bytegate/contracts/routes';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { Logo } from './logo.tsx';

const columns = [
  {
    title: 'Product',
    links: [
      { label: 'Home', to: '/' },
      { label: 'Features', to: '/#features' },
      { label: 'Pricing', to: '/#pricing' },
      { label: 'Locations', to: '/locations' },
    ],
  },
  {
    title: 'Account',
    links: [
      { label: 'Log in', to: '/login' },
      { label: 'Create account', to: '/signup' },
      { label: 'Dashboard', to: '/dashboard' },
    ],
  },
  {
    title: 'Help',
    links: [
      { label: 'Help Center', to: '/help' },
      { label: 'Getting started', to: HELP_ARTICLE_PATHS[0] },
      { label: 'Troubleshooting', to: '/help/troubleshooting' },
      { label: 'Contact', to: '/contact' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy Policy', to: '/privacy' },
      { label: 'Terms of Service', to: '/terms' },
    ],
  },
];

const subscribeToNothing = () => () => {};

export function SiteFooter() {
  // A page prerendered in one year may be read in the next: it hydrates with the build's year, then shows today's.
  const year = useSyncExternalStore(
    subscribeToNothing,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
  return (
    <footer className="border-t border-gray-200 bg-gray-50">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-12 sm:px-6 md:grid-cols-5">
        <div className="col-span-2 space-y-3 md:col-span-1">
          <Logo />
          <p className="text-sm text-gray-600">
            Pay-per-GB datacenter, residential and mobile proxies in 195 countries.
          </p>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-semibold text-gray-900">{column.title}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.to} className="text-sm text-gray-600 hover:text-gray-900">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="border-t border-gray-200 py-6 text-center text-xs text-gray-500">
        © {year} Bytegate. All rights reserved.
      </p>
    </footer>
  );
}
