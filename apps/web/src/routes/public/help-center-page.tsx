import { ArrowRightIcon, BookOpenIcon, SearchIcon } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Input } from '../../components/ui/input.tsx';
import { HELP_ENTRIES } from '../../features/help/articles.ts';
import { Breadcrumbs } from '../../features/help/breadcrumbs.tsx';
import { searchGuides } from '../../features/help/search-guides.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { pageHeadFor } from '../../seo/page-head.ts';

/**
 * The guides' text, loaded once when a visitor starts searching (one chunk), so the Help Center itself
 * stays light; until it arrives, the search covers titles, descriptions and section titles.
 */
function useGuideTexts(): { texts: Record<string, string>; load: () => void } {
  const [texts, setTexts] = useState<Record<string, string>>({});
  const started = useRef(false);
  const load = useCallback(() => {
    if (started.current) {
      return;
    }
    started.current = true;
    import('virtual:help-search').then(
      (module) => setTexts(module.default),
      () => {
        started.current = false;
      },
    );
  }, []);
  return { texts, load };
}

/** The query as the results line repeats it: a pasted page of text is cut short, not echoed whole. */
function shortQuery(query: string): string {
  const trimmed = query.trim();
  const chars = Array.from(trimmed);
  return chars.length > 60 ? `${chars.slice(0, 60).join('')}…` : trimmed;
}

/** The Help Center: a card for each guide, and a search over them (?q= in the address). */
export function HelpCenterPage() {
  const inputId = useId();
  const isHydrated = useHydrated();
  const [params, setParams] = useSearchParams();
  // The prerendered page lists every guide; a query in the address applies once the app runs the page.
  const query = isHydrated ? (params.get('q') ?? '') : '';
  const { texts, load } = useGuideTexts();
  useEffect(() => {
    if (query.trim()) {
      load();
    }
  }, [query, load]);
  const results = searchGuides(HELP_ENTRIES, query, texts);
  const isSearching = query.trim() !== '';
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <Breadcrumbs trail={pageHeadFor('/help')?.breadcrumbs ?? []} />
      <h1 className="mt-6 text-3xl font-semibold tracking-tight text-gray-900 sm:text-4xl">Help Center</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-600">
        Set up your proxies, target locations, and fix what goes wrong: guides with examples that run as
        written.
      </p>
      <search className="mt-8 max-w-xl">
        <label htmlFor={inputId} className="sr-only">
          Search the guides
        </label>
        <div className="relative">
          <SearchIcon
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-400"
            aria-hidden="true"
          />
          <Input
            id={inputId}
            type="search"
            className="h-11 pl-9 text-base"
            placeholder="Search the guides: sticky, SOCKS5, 407…"
            value={query}
            disabled={!isHydrated}
            onFocus={load}
            onChange={(event) =>
              setParams(event.target.value ? { q: event.target.value } : {}, { replace: true })
            }
          />
        </div>
        <p aria-live="polite" className="mt-2 min-h-5 text-sm break-words text-gray-600">
          {isSearching
            ? results.length === 0
              ? `No guide matches “${shortQuery(query)}”.`
              : `${results.length} ${results.length === 1 ? 'guide matches' : 'guides match'} “${shortQuery(query)}”.`
            : ''}
        </p>
      </search>
      {isSearching && results.length === 0 ? (
        <p className="mt-6 text-gray-700">
          Try fewer or other words, or{' '}
          <Link to="/contact" className="font-medium text-brand-600 hover:text-brand-700">
            ask our support team
          </Link>
          .
        </p>
      ) : null}
      <ul aria-label="Guides" className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {results.map((entry) => (
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
