import type { Plan } from '@bytegate/contracts/billing';
import { MAX_REQUESTED_THREADS, type ThreadRequest } from '@bytegate/contracts/thread-requests';
import { useEffect, useId, useRef, useState } from 'react';
import { useLivePlan } from '../../api/use-plans.ts';
import { useThreadRequests } from '../../api/use-thread-requests.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { LatestRequest, requestSummary } from './request-status.tsx';
import { RequestThreadsDialog } from './request-threads-dialog.tsx';
import { ThreadRequestStatusBadge } from './status-badge.tsx';

const threads = (count: number) => count.toLocaleString('en-US');

/**
 * Threads: how many connections the plan may hold open at once (kept fresh, so an approval shows within
 * seconds), a way to ask support for more (the spec's "thread increases go through support"), and the
 * latest request's status and answer, with the earlier ones folded away.
 */
export function ThreadsCard({ plan: listed }: { plan: Plan }) {
  const plan = useLivePlan(listed).data;
  const requests = useThreadRequests();
  const latestRef = useRef<HTMLElement>(null);
  const titleId = useId();
  const ofPlan = (requests.data ?? []).filter((request) => request.subUserId === plan.subUserId);
  // Newest first: the first is the latest.
  const latest = ofPlan[0];
  const isAtMaximum = plan.threads >= MAX_REQUESTED_THREADS;
  const canAsk = latest?.status !== 'pending' && requests.isSuccess;
  // After a request is sent or cancelled its dialog's button is gone: focus goes to the request's
  // status instead, once the dialog has let go of it, so a screen reader reads the outcome.
  const [focusCount, setFocusCount] = useState(0);
  useEffect(() => {
    if (focusCount === 0) {
      return;
    }
    const timer = setTimeout(() => latestRef.current?.focus(), 50);
    return () => clearTimeout(timer);
  }, [focusCount]);
  const focusLatest = () => setFocusCount((count) => count + 1);

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
        <div>
          <CardTitle id={titleId}>Threads</CardTitle>
          <p className="mt-2 text-sm text-gray-600">
            <span className="text-2xl font-semibold tracking-tight text-gray-900" data-testid="thread-limit">
              {threads(plan.threads)}
            </span>{' '}
            connections at once
          </p>
        </div>
        {isAtMaximum ? null : (
          <RequestThreadsDialog key={plan.threads} plan={plan} hasTrigger={canAsk} onSent={focusLatest} />
        )}
      </CardHeader>
      <CardContent className="space-y-4">
        {requests.isPending ? (
          <div role="status" aria-label="Loading thread requests">
            <Skeleton className="h-16" />
          </div>
        ) : requests.isError ? (
          <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-gray-600">
            <span>Your thread requests could not be loaded.</span>
            <Button type="button" variant="secondary" size="sm" onClick={() => void requests.refetch()}>
              Retry
            </Button>
          </div>
        ) : latest ? (
          <LatestRequest ref={latestRef} request={latest} onCancelled={focusLatest} />
        ) : (
          <p className="text-sm text-gray-600">
            {isAtMaximum
              ? 'This plan has the highest thread limit we offer.'
              : 'A connection over the limit is refused with 407 THREADS_EXHAUSTED. Need more? Tell support how many threads and what for.'}
          </p>
        )}
        {ofPlan.length > 1 ? <EarlierRequests requests={ofPlan.slice(1)} /> : null}
      </CardContent>
    </Card>
  );
}

function EarlierRequests({ requests }: { requests: ThreadRequest[] }) {
  return (
    <details className="group rounded-lg border border-gray-200 text-sm">
      <summary className="cursor-pointer rounded-lg px-4 py-2.5 font-medium text-gray-700 select-none hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-brand-500">
        Earlier requests ({requests.length})
      </summary>
      <ul className="divide-y divide-gray-100 border-t border-gray-100">
        {requests.map((request) => (
          <li key={request.id} className="space-y-1.5 px-4 py-3">
            <ThreadRequestStatusBadge status={request.status} />
            <p className="text-gray-700">{requestSummary(request)}</p>
            {request.decisionMessage ? (
              <p className="break-words whitespace-pre-line text-gray-600">
                <span className="font-medium text-gray-700">Support: </span>
                {request.decisionMessage}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </details>
  );
}
