import type { StaffRole } from '@bytegate/contracts/admin';
import { POOL_NAMES } from '@bytegate/contracts/pools';
import { type AdminThreadRequest, THREAD_REQUEST_USAGE_DAYS } from '@bytegate/contracts/thread-requests';
import { ExternalLinkIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/cn.ts';
import { SupportAnswer } from '../../thread-requests/request-status.tsx';
import { ThreadRequestStatusBadge } from '../../thread-requests/status-badge.tsx';
import { formatAgo, formatDateTime, formatGb, formatInteger } from '../format.ts';
import { ApproveDialog, DeclineDialog } from './decision-dialogs.tsx';

/** The queue: one card per request, with everything a decision needs and, while pending, the actions. */
export function ThreadRequestList({
  requests,
  staffRole,
}: {
  requests: AdminThreadRequest[];
  staffRole: StaffRole;
}) {
  return (
    <ul aria-label="Thread requests" className="divide-y divide-gray-100">
      {requests.map((request) => (
        <li key={request.id}>
          <RequestItem request={request} staffRole={staffRole} />
        </li>
      ))}
    </ul>
  );
}

function RequestItem({ request, staffRole }: { request: AdminThreadRequest; staffRole: StaffRole }) {
  const { customer, plan, usage } = request;
  const titleId = `thread-request-${request.id}`;
  const name = `${customer.firstName} ${customer.lastName}`.trim() || customer.email;
  // A staff member's plan is an admin's to change (the server refuses support too).
  const disabledReason =
    customer.isStaff && staffRole !== 'admin' ? "A staff member's plan: an admin decides." : undefined;
  const raise = request.requestedThreads - plan.threadLimit;

  return (
    <article aria-labelledby={titleId} className="space-y-4 px-5 py-5 sm:px-6">
      <header className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h3 id={titleId} className="font-semibold text-gray-900">
            <Link
              to={`/admin/customers/${encodeURIComponent(customer.id)}`}
              className="rounded-sm hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              {name}
            </Link>
          </h3>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-gray-600">
            <span className="break-all">{customer.email}</span>
            {customer.isStaff ? <Badge tone="brand">Staff account</Badge> : null}
            {customer.isDisabled ? <Badge tone="danger">Disabled</Badge> : null}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-2 text-sm text-gray-500">
          <ThreadRequestStatusBadge status={request.status} />
          <time dateTime={request.createdAt} title={formatDateTime(request.createdAt)}>
            {formatAgo(request.createdAt)}
          </time>
        </div>
      </header>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg bg-gray-50 px-4 py-3 text-sm lg:grid-cols-4">
        <Fact term="Plan">
          {POOL_NAMES[plan.poolType]}{' '}
          <code className="rounded bg-white px-1.5 py-0.5 font-mono text-xs text-gray-800 ring-1 ring-gray-200">
            {plan.login}
          </code>
          {plan.isActive ? null : <span className="ml-1 text-gray-500">(inactive)</span>}
        </Fact>
        <Fact term="Threads now">{formatInteger(plan.threadLimit)}</Fact>
        <Fact term="Asked for">
          {formatInteger(request.requestedThreads)}
          {request.status === 'approved' && request.grantedThreads !== null ? (
            <span className="block text-xs text-emerald-700">
              {formatInteger(request.grantedThreads)} granted
            </span>
          ) : request.status === 'pending' && raise > 0 ? (
            <span className="ml-1 text-gray-500">(+{formatInteger(raise)})</span>
          ) : null}
        </Fact>
        <Fact term={`Last ${THREAD_REQUEST_USAGE_DAYS} days`}>
          {formatInteger(usage.requests)} {usage.requests === 1 ? 'request' : 'requests'}
          <span
            className={cn('block text-xs', usage.threadsExhausted > 0 ? 'text-amber-700' : 'text-gray-500')}
          >
            {formatInteger(usage.threadsExhausted)} refused for want of threads
          </span>
        </Fact>
      </dl>

      <div className="space-y-2">
        <h4 className="text-xs font-medium tracking-wide text-gray-500 uppercase">What for</h4>
        <p className="max-w-prose text-sm break-words whitespace-pre-line text-gray-900">{request.purpose}</p>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-600">
          <span>
            <span className="text-gray-500">Company:</span> {request.company ?? 'not given'}
          </span>
          <span className="min-w-0">
            <span className="text-gray-500">Website:</span>{' '}
            {request.website ? (
              <a
                href={request.website}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="inline-flex items-center gap-1 break-all text-brand-700 underline-offset-2 hover:underline"
              >
                {request.website.replace(/^https?:\/\//, '')}
                <ExternalLinkIcon className="size-3.5 shrink-0" aria-hidden="true" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            ) : (
              'not given'
            )}
          </span>
          <span>
            <span className="text-gray-500">Traffic:</span> {formatGb(plan.trafficUsedBytes)} used of{' '}
            {formatGb(plan.trafficTotalBytes)}
          </span>
        </p>
      </div>

      {request.status === 'pending' ? (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-end">
          {disabledReason ? <p className="text-sm text-gray-600 sm:mr-auto">{disabledReason}</p> : null}
          <div className="grid grid-cols-2 gap-2 sm:flex">
            <DeclineDialog request={request} disabledReason={disabledReason} />
            <ApproveDialog request={request} disabledReason={disabledReason} />
          </div>
        </div>
      ) : (
        <Decision request={request} />
      )}
    </article>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-gray-500">{term}</dt>
      <dd className="mt-0.5 font-medium text-gray-900 tabular-nums">{children}</dd>
    </div>
  );
}

/** Who decided, when, and what they told the customer. */
function Decision({ request }: { request: AdminThreadRequest }) {
  const when = request.decidedAt ? formatDateTime(request.decidedAt) : null;
  const who = request.decidedByEmail;
  const line =
    request.status === 'cancelled'
      ? `Cancelled by the customer${when ? ` on ${when}` : ''}.`
      : `${request.status === 'approved' ? 'Approved' : 'Declined'}${who ? ` by ${who}` : ''}${when ? ` on ${when}` : ''}.`;
  return (
    <div className="space-y-2">
      <p className="text-sm text-gray-600">{line}</p>
      {request.decisionMessage ? (
        <SupportAnswer message={request.decisionMessage} caption="Message to the customer" />
      ) : null}
    </div>
  );
}
