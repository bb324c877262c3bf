import type { Payment, PaymentEvent } from '@bytegate/contracts/admin-payments';
import { usePayment } from '../../../api/use-admin-payments.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { formatDateTime, formatDollars } from '../format.ts';
import { ErrorState, LoadingRows } from '../states.tsx';

/** What the payment's row opens to: its invoice, its money, and every webhook the provider sent. */
export function PaymentDetails({ payment }: { payment: Payment }) {
  const detail = usePayment(payment.orderId, true);
  const facts: Array<[string, string]> = [
    ['Credited', formatDollars(payment.credited)],
    ['Completed', payment.completedAt ? formatDateTime(payment.completedAt) : '—'],
  ];
  if (payment.refundedAt) {
    facts.push(['Refunded', `${formatDollars(payment.refunded)} on ${formatDateTime(payment.refundedAt)}`]);
  }
  return (
    <div className="space-y-4 text-sm">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-3">
        <div className="col-span-2 min-w-0 sm:col-span-3">
          <dt className="text-gray-600">Invoice id</dt>
          <dd className="flex min-w-0 items-center gap-1">
            {payment.invoiceId ? (
              <>
                <code className="truncate font-mono text-xs text-gray-800">{payment.invoiceId}</code>
                <CopyButton text={payment.invoiceId} what="invoice id" variant="ghost" size="icon" />
              </>
            ) : (
              <span className="text-gray-500">None (paid from the balance)</span>
            )}
          </dd>
        </div>
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className="text-gray-600">{label}</dt>
            <dd className="text-gray-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {payment.provider === 'balance' ? null : detail.isPending ? (
        <LoadingRows what="provider events" rows={2} />
      ) : detail.isError ? (
        <ErrorState
          error={detail.error}
          fallback="The provider's events could not be loaded. Please try again."
          onRetry={() => void detail.refetch()}
          isRetrying={detail.isFetching}
        />
      ) : (
        <EventList events={detail.data.events} orderId={payment.orderId} />
      )}
    </div>
  );
}

const signature = (event: PaymentEvent) =>
  event.isSignatureValid === null ? (
    <Badge>Unsigned</Badge>
  ) : event.isSignatureValid ? (
    <Badge tone="success">Signature valid</Badge>
  ) : (
    <Badge tone="danger">Bad signature</Badge>
  );

function EventList({ events, orderId }: { events: PaymentEvent[]; orderId: string }) {
  if (events.length === 0) {
    return (
      <p className="text-gray-600">
        No webhooks arrived for this invoice. “Check with provider” asks it directly.
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <h3 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">Provider events</h3>
      <ol className="space-y-2" aria-label={`Provider events of ${orderId}`}>
        {events.map((event) => (
          <li key={event.id} className="rounded-lg border border-gray-200 bg-white px-3 py-2">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <time dateTime={event.receivedAt} className="text-gray-600">
                {formatDateTime(event.receivedAt)}
              </time>
              <span className="font-medium text-gray-900">{event.claimedStatus ?? 'no status'}</span>
              {signature(event)}
              <span className="text-gray-600">→ {event.outcome ?? 'not processed'}</span>
              {event.sourceIp ? <span className="text-xs text-gray-500">from {event.sourceIp}</span> : null}
            </div>
            <details className="mt-1">
              <summary className="cursor-pointer text-xs font-medium text-brand-700">Raw body</summary>
              <pre className="mt-1 max-h-48 overflow-auto rounded bg-gray-50 p-2 font-mono text-xs break-all whitespace-pre-wrap text-gray-800">
                {event.rawBody}
              </pre>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
