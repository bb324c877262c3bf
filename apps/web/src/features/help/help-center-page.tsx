import { ArrowRightIcon, BookOpenIcon } from 'lucide-react';
import { Link } from 'react-router';
import { pageHeadFor } from '../../seo/page-head.ts';
import { HELP_ENTRIES } from './articles.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';

/** The Help Center: a card for each of the 16 guides. */
export function HelpCenterPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <Breadcrumbs trail={pageHeadFor('/help')?.breadcrumbs ?? []} />
      <h1 className="mt-6 text-3xl font-semibold tracking-tight text-gray-900 sm:text-4xl">Help Center</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-600">
        Set up your proxies, target locations, and fix what goes wrong: guides with examples that run as
        written.
      </p>
      <ul aria-label="Guides" className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {HELP_ENTRIES.map((entry) => (
          <li key={entry.path}>
            <Link
              to={entry.path}
              className="group flex h-full flex-col rounded-xl border border-gray-200 bg-white p-5 shadow-sm transition hover:border-brand-200 hover:shadow-md focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              <BookOpenIcon className="size-5 text-brand-600" aria-hidden="true" />
              <span className="mt-3 font-semibold text-gray-900">{entry.title}</span>
              <span className="mt-1 flex-1 text-sm text-gray-600">{entry.description}</span>
              <span className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-brand-600">
                Read the guide
                <ArrowRightIcon
                  className="size-4 transition group-hover:translate-x-0.5"
                  aria-hidden="true"
                />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
