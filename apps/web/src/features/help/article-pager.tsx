import { ArrowLeftIcon, ArrowRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { HELP_ENTRIES, type HelpEntry } from './articles.ts';

/** The guides before and after this one, in the Help Center's order, to read them as a course. */
export function ArticlePager({ entry }: { entry: HelpEntry }) {
  const index = HELP_ENTRIES.findIndex((candidate) => candidate.path === entry.path);
  const previous = HELP_ENTRIES[index - 1];
  const next = HELP_ENTRIES[index + 1];
  if (!previous && !next) {
    return null;
  }
  const card =
    'group flex flex-col gap-1 rounded-xl border border-gray-200 p-4 transition hover:border-brand-200 hover:shadow-sm';
  return (
    <nav aria-label="More guides" className="mt-12 grid gap-4 border-t border-gray-200 pt-8 sm:grid-cols-2">
      {previous ? (
        <Link to={previous.path} className={card}>
          <span className="inline-flex items-center gap-1 text-sm text-gray-500">
            <ArrowLeftIcon className="size-4" aria-hidden="true" /> Previous
          </span>
          <span className="font-medium text-gray-900 group-hover:text-brand-700">{previous.title}</span>
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link to={next.path} className={`${card} sm:items-end sm:text-right`}>
          <span className="inline-flex items-center gap-1 text-sm text-gray-500">
            Next <ArrowRightIcon className="size-4" aria-hidden="true" />
          </span>
          <span className="font-medium text-gray-900 group-hover:text-brand-700">{next.title}</span>
        </Link>
      ) : null}
    </nav>
  );
}
