import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { Button } from './button.tsx';

/**
 * Previous and next under a paged list, with where you are; nothing while everything fits one page.
 * `page` is the page asked for (the one shown may still be the previous while the next loads).
 */
export function Pager({
  label,
  page,
  pagination,
  onPage,
  className,
}: {
  /** What the pages are of, for screen readers: 'Orders pages'. */
  label: string;
  page: number;
  pagination: { currentPage: number; totalPages: number } | undefined;
  onPage: (page: number) => void;
  className?: string;
}) {
  if (!pagination || pagination.totalPages <= 1) {
    return null;
  }
  return (
    <nav
      aria-label={label}
      className={cn(
        'flex items-center justify-between gap-3 border-t border-gray-100 px-5 py-3 text-sm sm:px-6',
        className,
      )}
    >
      <span className="text-gray-600">
        Page {pagination.currentPage} of {pagination.totalPages}
      </span>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeftIcon aria-hidden="true" /> Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={page >= pagination.totalPages}
          onClick={() => onPage(page + 1)}
        >
          Next <ChevronRightIcon aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
