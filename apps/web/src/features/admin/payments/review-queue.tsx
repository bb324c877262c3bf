import type { StaffRole } from '@bytegate/contracts/admin';
import { ClipboardCheckIcon } from 'lucide-react';
import { Link } from 'react-router';
import { usePayments } from '../../../api/use-admin-payments.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { formatDateTime, formatDollars } from '../format.ts';
import { EmptyState, ErrorState, LoadingRows } from '../states.tsx';
import { CheckButton } from './check-button.tsx';
import { PROVIDER_LABELS } from './payment-labels.ts';
import { ApproveDialog, RejectDialog } from './review-dialogs.tsx';

/**
 * Top-ups held for review: paid short with no USD figure from the provider. Each waits for a person to
 * check the payment at the provider and approve what arrived, or reject it.
 */
export function ReviewQueue({ staffRole }: { staffRole: StaffRole }) {
  const queue = usePayments({ status: 'review', page: 1 });
  const held = queue.data?.payments ?? [];
  const total = queue.data?.pagination.totalItems ?? 0;
  return (
    <Card aria-labelledby="review-queue-title">
      <CardHeader className="flex flex-row items-center justify-between gap-3">
        <CardTitle id="review-queue-title">Held for review</CardTitle>
        {queue.data ? (
          <Badge tone={total > 0 ? 'warning' : 'neutral'}>{total === 1 ? '1 waits' : `${total} wait`}</Badge>
        ) : null}
      </CardHeader>
      {queue.isPending ? (
        <LoadingRows what="the review queue" rows={2} className="p-5 sm:px-6" />
      ) : queue.isError ? (
        <div className="p-5 sm:px-6">
          <ErrorState
            error={queue.error}
            fallback="The review queue could not be loaded. Please try again."
            onRetry={() => void queue.refetch()}
            isRetrying={queue.isFetching}
          />
        </div>
      ) : held.length === 0 ? (
        <EmptyState icon={ClipboardCheckIcon} title="Nothing waits for review" className="py-8">
          Partial payments the provider gives no dollar amount for appear here.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-gray-100" aria-label="Top-ups held for review">
          {held.map((payment) => (
            <li key={payment.orderId} className="grid gap-4 px-5 py-4 sm:px-6 lg:grid-cols-[1fr_auto]">
              <div className="min-w-0 space-y-1 text-sm">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-mono text-xs text-gray-700">{payment.orderId}</span>
                  <Badge tone="warning">Under review</Badge>
                  <span className="text-gray-500">
                    {PROVIDER_LABELS[payment.provider]} · {payment.providerStatus ?? 'no status'}
                  </span>
                </p>
                <p className="font-medium text-gray-900">
                  {formatDollars(payment.amount)} asked
                  {payment.review?.payerPaid
                    ? `, ${payment.review.payerPaid.amount} ${payment.review.payerPaid.currency} sent`
                    : ''}
                </p>
                <p className="break-all text-gray-600">
                  <Link
                    to={`/admin/customers/${payment.userId}`}
                    state={{ backTo: '/admin/payments' }}
                    className="font-medium text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
                  >
                    {payment.email}
                  </Link>{' '}
                  · <time dateTime={payment.createdAt}>{formatDateTime(payment.createdAt)}</time>
                </p>
              </div>
              <div className="flex flex-wrap items-start gap-2 lg:justify-end">
                <CheckButton payment={payment} className="order-last w-full lg:order-none lg:w-auto" />
                <RejectDialog payment={payment} />
                <ApproveDialog payment={payment} staffRole={staffRole} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
