import type { WebhookDelivery } from '@bytegate/contracts/notifications';
import { WebhookIcon } from 'lucide-react';
import { useId } from 'react';
import { useWebhookDeliveries } from '../../api/use-notifications.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { formatDateTime } from '../admin/format.ts';
import { EmptyState, ErrorState, LoadingRows } from '../admin/states.tsx';
import { deliveryStatus, kindLabel, lastAnswer } from './notification-format.ts';

/** The webhook's deliveries, newest first: each event, how it stands, and every attempt's answer. */
export function WebhookDeliveryLog() {
  const deliveries = useWebhookDeliveries(true);
  const titleId = useId();
  const all = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h3 id={titleId} className="text-sm font-semibold text-gray-900">
        Delivery log
      </h3>
      {deliveries.isPending ? (
        <LoadingRows what="deliveries" rows={3} />
      ) : deliveries.isError ? (
        <ErrorState
          error={deliveries.error}
          fallback="Failed to load the delivery log."
          onRetry={() => void deliveries.refetch()}
          isRetrying={deliveries.isFetching}
        />
      ) : all.length === 0 ? (
        <EmptyState icon={WebhookIcon} title="No deliveries yet" className="py-6">
          Send a test event to see one here, with your endpoint’s answer.
        </EmptyState>
      ) : (
        <>
          <ul aria-label="Deliveries" className="divide-y divide-gray-100 rounded-lg border border-gray-200">
            {all.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </ul>
          {deliveries.hasNextPage ? (
            <div className="flex justify-center">
              <Button
                type="button"
                variant="secondary"
                size="sm"
                isLoading={deliveries.isFetchingNextPage}
                onClick={() => void deliveries.fetchNextPage()}
              >
                Show older deliveries
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const status = deliveryStatus(delivery);
  return (
    <li>
      <details className="group">
        <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-brand-500 [&::-webkit-details-marker]:hidden">
          <span className="font-medium text-gray-900">{kindLabel(delivery.kind)}</span>
          <Badge tone={status.tone}>{status.label}</Badge>
          <span className="text-gray-600">{lastAnswer(delivery)}</span>
          <time dateTime={delivery.createdAt} className="ml-auto text-gray-500">
            {formatDateTime(delivery.createdAt)}
          </time>
        </summary>
        <div className="space-y-3 border-t border-gray-100 bg-gray-50/60 px-4 py-3 text-sm">
          <p className="break-all text-gray-600">
            To <span className="font-mono text-gray-800">{delivery.url}</span>
            {delivery.nextAttemptAt ? (
              <>
                {' '}
                · next try{' '}
                <time dateTime={delivery.nextAttemptAt}>{formatDateTime(delivery.nextAttemptAt)}</time>
              </>
            ) : null}
          </p>
          {delivery.attempts.length > 0 ? (
            <ol aria-label="Attempts" className="space-y-2">
              {delivery.attempts.map((attempt, index) => (
                <li key={attempt.attemptedAt} className="rounded-md border border-gray-200 bg-white p-3">
                  <p className="flex flex-wrap gap-x-3 text-gray-700">
                    <span className="font-medium">Attempt {index + 1}</span>
                    <span>{attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : 'No answer'}</span>
                    <span>{attempt.durationMs} ms</span>
                    <time dateTime={attempt.attemptedAt} className="text-gray-500">
                      {formatDateTime(attempt.attemptedAt)}
                    </time>
                  </p>
                  {attempt.error ? <p className="mt-1 text-red-700">{attempt.error}</p> : null}
                  {attempt.responseBody ? (
                    <pre className="mt-2 rounded bg-gray-100 p-2 font-mono text-xs whitespace-pre-wrap break-all text-gray-800">
                      {attempt.responseBody}
                    </pre>
                  ) : null}
                </li>
              ))}
            </ol>
          ) : null}
          <div>
            <p className="mb-1 font-medium text-gray-700">Payload</p>
            <pre className="rounded bg-gray-900 p-3 font-mono text-xs whitespace-pre-wrap break-all text-gray-100">
              {JSON.stringify(delivery.payload, null, 2)}
            </pre>
          </div>
        </div>
      </details>
    </li>
  );
}
