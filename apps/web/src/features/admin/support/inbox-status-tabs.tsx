import { CONTACT_STATUSES, type ContactStatus, type InboxCounts } from '@bytegate/contracts/admin-support';
import { Link } from 'react-router';
import { cn } from '../../../lib/cn.ts';
import { formatInteger } from '../format.ts';
import { CONTACT_STATUS_LABELS } from './contact-status.tsx';

interface InboxStatusTabsProps {
  /** The status shown, or null for every one. */
  current: ContactStatus | null;
  /** The counts under the other filters; undefined while loading. */
  counts: InboxCounts | undefined;
  /** The address of the inbox showing a status (the other filters kept). */
  hrefOf: (status: ContactStatus | null) => string;
}

/**
 * The inbox's statuses with their counts. They are links that filter the list (the status is in the
 * address), so they are a navigation with the current one marked, not ARIA tabs.
 */
export function InboxStatusTabs({ current, counts, hrefOf }: InboxStatusTabsProps) {
  const tabs: Array<{ status: ContactStatus | null; label: string; count: number | undefined }> = [
    { status: null, label: 'All', count: counts?.all },
    ...CONTACT_STATUSES.map((status) => ({
      status,
      label: CONTACT_STATUS_LABELS[status],
      count: counts?.[status],
    })),
  ];
  return (
    <nav aria-label="Message status" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="inline-flex min-w-max gap-1 rounded-lg bg-gray-100 p-1">
        {tabs.map((tab) => {
          const isCurrent = tab.status === current;
          return (
            <li key={tab.label}>
              <Link
                to={hrefOf(tab.status)}
                replace
                aria-current={isCurrent ? 'page' : undefined}
                className={cn(
                  'inline-flex h-8 items-center gap-2 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-brand-500',
                  isCurrent ? 'bg-white text-gray-900 shadow-sm' : 'text-gray-600 hover:text-gray-900',
                )}
              >
                {tab.label}
                <span
                  className={cn(
                    'min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums',
                    isCurrent ? 'bg-brand-50 text-brand-700' : 'bg-gray-200/80 text-gray-700',
                  )}
                >
                  {tab.count === undefined ? '…' : formatInteger(tab.count)}
                  <span className="sr-only"> {tab.count === 1 ? 'message' : 'messages'}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
