import type { StaffRole } from '@bytegate/contracts/admin';
import { PAYMENT_METHODS, type PaymentsQuery } from '@bytegate/contracts/admin-payments';
import { FilterXIcon, ReceiptTextIcon } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { PaymentsFilter } from '../../api/admin-payments-client.ts';
import { usePayments } from '../../api/use-admin-payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { formatInteger } from '../../features/admin/format.ts';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { KIND_LABELS, PROVIDER_LABELS } from '../../features/admin/payments/payment-labels.ts';
import { PaymentsList } from '../../features/admin/payments/payments-list.tsx';
import { ReviewQueue } from '../../features/admin/payments/review-queue.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../../features/admin/states.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

interface Filters {
  status: string;
  provider: string;
  kind: string;
  q: string;
}

const FILTER_KEYS = ['status', 'provider', 'kind', 'q'] as const;
const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  completed: 'Completed',
  failed: 'Failed',
  review: 'Under review',
};

function readFilters(params: URLSearchParams): Filters {
  return {
    status: params.get('status') ?? '',
    provider: params.get('provider') ?? '',
    kind: params.get('kind') ?? '',
    q: params.get('q') ?? '',
  };
}

/** The filters as the API takes them: a value it does not know (an edited address) is left out. */
function toQuery(filters: Filters, page: number): PaymentsFilter {
  const pick = <T extends string>(value: string, known: readonly T[]) =>
    (known as readonly string[]).includes(value) ? (value as T) : undefined;
  return {
    status: pick(filters.status, ['pending', 'completed', 'failed', 'review'] as const),
    provider: pick(filters.provider, PAYMENT_METHODS),
    kind: pick(filters.kind, ['topup', 'purchase'] as const),
    q: filters.q.trim() || undefined,
    page,
  } satisfies PaymentsQuery;
}

const selectClass =
  'block h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none';

/**
 * Payments: the top-ups held for review first, then every top-up and purchase with its provider's
 * word, filtered by status, provider, kind or a search (in the address, so back and links return to it).
 */
export function PaymentsPage({ staffRole }: { staffRole: StaffRole }) {
  useDocumentTitle('Payments · Console');
  const [params, setParams] = useSearchParams();
  const applied = readFilters(params);
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [draft, setDraft] = useState<Filters>(applied);
  const payments = usePayments(toQuery(applied, page));
  const formId = useId();
  const isFiltered = FILTER_KEYS.some((key) => applied[key] !== '');

  const appliedKey = FILTER_KEYS.map((key) => applied[key]).join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: appliedKey stands for the filters.
  useEffect(() => {
    setDraft(readFilters(params));
  }, [appliedKey]);

  const apply = (filters: Filters, nextPage = 1) => {
    const next = new URLSearchParams();
    for (const key of FILTER_KEYS) {
      const value = filters[key].trim();
      if (value) {
        next.set(key, value);
      }
    }
    if (nextPage > 1) {
      next.set('page', String(nextPage));
    }
    setParams(next);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  const field = (key: keyof Filters) => ({
    id: `${formId}-${key}`,
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value }),
  });
  const pagination = payments.data?.pagination;
  const total = pagination?.totalItems ?? 0;
  const summary = pagination
    ? `${formatInteger(total)} ${total === 1 ? 'payment' : 'payments'}${isFiltered ? (total === 1 ? ' matches' : ' match') : ''}`
    : '';
  const backTo = `/admin/payments${params.size > 0 ? `?${params.toString()}` : ''}`;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Payments"
        description="Every top-up and purchase with its provider's word. Partial payments nobody can price wait for review."
      />
      <ReviewQueue staffRole={staffRole} />

      <Card aria-labelledby={`${formId}-filters`}>
        <h2 id={`${formId}-filters`} className="sr-only">
          Filters
        </h2>
        <form
          onSubmit={onSubmit}
          className="grid grid-cols-2 gap-4 p-5 sm:grid-cols-3 sm:px-6 lg:grid-cols-[repeat(3,minmax(0,11rem))_1fr_auto]"
        >
          <div className="space-y-1.5">
            <Label htmlFor={`${formId}-status`}>Status</Label>
            <select {...field('status')} className={selectClass}>
              <option value="">All statuses</option>
              {Object.entries(STATUS_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${formId}-provider`}>Provider</Label>
            <select {...field('provider')} className={selectClass}>
              <option value="">All providers</option>
              {PAYMENT_METHODS.map((method) => (
                <option key={method} value={method}>
                  {PROVIDER_LABELS[method]}
                </option>
              ))}
            </select>
          </div>
          <div className="col-span-2 space-y-1.5 sm:col-span-1">
            <Label htmlFor={`${formId}-kind`}>Kind</Label>
            <select {...field('kind')} className={selectClass}>
              <option value="">All kinds</option>
              <option value="topup">{KIND_LABELS.topup}s</option>
              <option value="purchase">{KIND_LABELS.purchase}s</option>
            </select>
          </div>
          <div className="col-span-2 space-y-1.5 sm:col-span-3 lg:col-span-1">
            <Label htmlFor={`${formId}-q`}>Search</Label>
            <Input
              type="search"
              placeholder="Order number, invoice id or email"
              autoComplete="off"
              spellCheck={false}
              {...field('q')}
            />
          </div>
          <div className="col-span-2 flex items-end gap-2 sm:col-span-3 lg:col-span-1">
            <Button type="submit" className="flex-1 lg:flex-none">
              Apply filters
            </Button>
            {isFiltered ? (
              <Button
                type="button"
                variant="ghost"
                onClick={() => apply({ status: '', provider: '', kind: '', q: '' })}
                aria-label="Clear filters"
              >
                <FilterXIcon aria-hidden="true" />
                <span className="hidden sm:inline">Clear</span>
              </Button>
            ) : null}
          </div>
        </form>
      </Card>

      <Card aria-labelledby={`${formId}-payments`}>
        <CardHeader className="flex flex-row items-center justify-between gap-3">
          <CardTitle id={`${formId}-payments`}>All payments</CardTitle>
          <p className="text-sm text-gray-500" role="status" aria-live="polite">
            {summary}
          </p>
        </CardHeader>
        {payments.isPending ? (
          <LoadingRows what="payments" rows={6} className="p-5 sm:px-6" />
        ) : payments.isError ? (
          <div className="p-5 sm:px-6">
            <ErrorState
              error={payments.error}
              fallback="Payments could not be loaded. Please try again."
              onRetry={() => void payments.refetch()}
              isRetrying={payments.isFetching}
            />
          </div>
        ) : payments.data.payments.length === 0 ? (
          <EmptyState
            icon={ReceiptTextIcon}
            title={isFiltered ? 'No payments match these filters' : 'No payments yet'}
          >
            {isFiltered
              ? 'An order number or invoice id must be whole; an email may be part of one.'
              : 'Top-ups and purchases appear here as customers make them.'}
          </EmptyState>
        ) : (
          <div
            aria-busy={payments.isFetching || undefined}
            className={cn(payments.isPlaceholderData && 'opacity-60')}
          >
            <PaymentsList payments={payments.data.payments} staffRole={staffRole} backTo={backTo} />
          </div>
        )}
        <Pager
          label="Payments pages"
          page={page}
          pagination={pagination}
          onPage={(next) => apply(applied, next)}
        />
      </Card>
    </div>
  );
}
