import type { StaffRole } from '@bytegate/contracts/admin';
import { THREAD_REQUEST_STATUSES, type ThreadRequestStatus } from '@bytegate/contracts/thread-requests';
import { GaugeIcon } from 'lucide-react';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useThreadRequestQueue } from '../../api/use-admin-thread-requests.ts';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { formatInteger } from '../../features/admin/format.ts';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../../features/admin/states.tsx';
import { ThreadRequestList } from '../../features/admin/thread-requests/thread-request-list.tsx';
import { threadRequestStatusLabel } from '../../features/thread-requests/status-badge.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The filters in the address: a status, or 'all' (every status, pending first). Pending by default. */
type StatusFilter = ThreadRequestStatus | 'all';
const FILTERS: StatusFilter[] = [...THREAD_REQUEST_STATUSES, 'all'];

function readFilter(value: string | null): StatusFilter {
  return FILTERS.find((filter) => filter === value) ?? 'pending';
}

const filterLabel = (filter: StatusFilter) => (filter === 'all' ? 'All' : threadRequestStatusLabel(filter));

const EMPTY: Record<StatusFilter, { title: string; body: string }> = {
  pending: { title: 'No requests waiting', body: 'New requests from customers appear here, oldest first.' },
  approved: { title: 'Nothing approved yet', body: 'Approved requests are listed here, newest first.' },
  declined: {
    title: 'Nothing declined yet',
    body: 'Declined requests are listed here with the message sent.',
  },
  cancelled: { title: 'Nothing cancelled', body: 'Requests customers withdrew are listed here.' },
  all: { title: 'No thread requests yet', body: 'Customers ask for more threads from Proxy Setup.' },
};

/** Thread requests: the queue of customers asking for more threads, and what was decided. */
export function ThreadRequestsPage({ staffRole }: { staffRole: StaffRole }) {
  useDocumentTitle('Thread requests · Console');
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params.get('status'));
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const queue = useThreadRequestQueue({ status: filter === 'all' ? null : filter, page });
  const listId = useId();
  const counts = queue.data?.counts;
  const pagination = queue.data?.pagination;

  const searchOf = (next: StatusFilter, nextPage = 1) => {
    const search = new URLSearchParams();
    if (next !== 'pending') {
      search.set('status', next);
    }
    if (nextPage > 1) {
      search.set('page', String(nextPage));
    }
    return search;
  };
  const hrefOf = (next: StatusFilter) => {
    const query = searchOf(next).toString();
    return `/admin/thread-requests${query ? `?${query}` : ''}`;
  };
  const countOf = (item: StatusFilter) =>
    counts
      ? item === 'all'
        ? Object.values(counts).reduce((sum, count) => sum + count, 0)
        : counts[item]
      : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Thread requests"
        description="Customers asking for more threads on a plan. Approving sets the plan's limit at once (the gateway applies it within 2 seconds); either answer is emailed to the customer and shown in their dashboard."
      />

      <nav aria-label="Filter by status">
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((item) => {
            const isCurrent = item === filter;
            const count = countOf(item);
            return (
              <li key={item}>
                <Link
                  to={hrefOf(item)}
                  aria-current={isCurrent ? 'page' : undefined}
                  className={cn(
                    'inline-flex h-9 items-center gap-2 rounded-full border px-3.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
                    isCurrent
                      ? 'border-brand-600 bg-brand-600 text-white'
                      : 'border-gray-300 bg-white text-gray-700 hover:bg-gray-50',
                  )}
                >
                  {filterLabel(item)}
                  {count === null ? null : (
                    <span
                      className={cn(
                        'rounded-full px-1.5 text-xs tabular-nums',
                        isCurrent ? 'bg-white/20 text-white' : 'bg-gray-100 text-gray-700',
                      )}
                    >
                      {formatInteger(count)}
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <Card aria-labelledby={listId}>
        <CardHeader className="flex flex-row items-center justify-between gap-3">
          <CardTitle id={listId}>
            {filter === 'all' ? 'All requests' : `${filterLabel(filter)} requests`}
          </CardTitle>
          <p className="text-sm text-gray-500" role="status" aria-live="polite">
            {pagination
              ? `${formatInteger(pagination.totalItems)} ${pagination.totalItems === 1 ? 'request' : 'requests'}`
              : ''}
          </p>
        </CardHeader>
        {queue.isPending ? (
          <LoadingRows what="thread requests" rows={4} className="p-5 sm:px-6" />
        ) : queue.isError ? (
          <div className="p-5 sm:px-6">
            <ErrorState
              error={queue.error}
              fallback="The thread requests could not be loaded. Please try again."
              onRetry={() => void queue.refetch()}
              isRetrying={queue.isFetching}
            />
          </div>
        ) : queue.data.requests.length === 0 ? (
          <EmptyState icon={GaugeIcon} title={EMPTY[filter].title}>
            {EMPTY[filter].body}
          </EmptyState>
        ) : (
          <div
            aria-busy={queue.isFetching || undefined}
            className={cn(queue.isPlaceholderData && 'opacity-60')}
          >
            <ThreadRequestList requests={queue.data.requests} staffRole={staffRole} />
          </div>
        )}
        <Pager
          label="Thread request pages"
          page={page}
          pagination={pagination}
          onPage={(next) => setParams(searchOf(filter, next))}
        />
      </Card>
    </div>
  );
}
