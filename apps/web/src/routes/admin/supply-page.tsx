import type { StaffRole } from '@bytegate/contracts/admin';
import type { SupplyMoney, SupplyRange } from '@bytegate/contracts/admin-supply';
import { DownloadIcon, NetworkIcon } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { useSearchParams } from 'react-router';
import { supplyCsvUrl } from '../../api/admin-supply-client.ts';
import { useSupply } from '../../api/use-admin-supply.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { SegmentedControl } from '../../components/ui/segmented-control.tsx';
import { formatGb, formatUtcDay } from '../../features/admin/format.ts';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../../features/admin/states.tsx';
import { AddSourceDialog } from '../../features/admin/supply/add-source-dialog.tsx';
import { ReconciliationCard } from '../../features/admin/supply/reconciliation-card.tsx';
import { formatCents, Margin } from '../../features/admin/supply/source-labels.tsx';
import { SourcesTable } from '../../features/admin/supply/sources-table.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const RANGES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
] as const;

/** The range in the address (`?days=30`), so a reload or a shared link keeps it; 7 days otherwise. */
const rangeOf = (params: URLSearchParams): SupplyRange => (params.get('days') === '30' ? 30 : 7);

/** Every source together over the range: what it carried, earned, cost and left. */
function Totals({ totals }: { totals: SupplyMoney }) {
  const marginShare =
    totals.revenueCents > 0 ? Math.round((100 * totals.marginCents) / totals.revenueCents) : null;
  const cards: Array<[string, ReactNode, string]> = [
    ['Carried', formatGb(totals.carriedBytes), `billed ${formatGb(totals.billedBytes)}`],
    ['Revenue', formatCents(totals.revenueCents), 'billed GB at the pool’s price'],
    ['Cost', formatCents(totals.costCents), 'carried GB at each source’s cost'],
    [
      'Margin',
      <Margin key="margin" cents={totals.marginCents} />,
      marginShare === null ? 'no revenue yet' : `${marginShare}% of revenue`,
    ],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map(([label, value, note]) => (
        <div key={label} className="rounded-xl border border-gray-200 bg-white px-4 py-3 shadow-xs">
          <dt className="text-sm text-gray-600">{label}</dt>
          <dd className="text-2xl font-semibold text-gray-900 tabular-nums">{value}</dd>
          <dd className="text-xs text-gray-500">{note}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Supply: where each pool's traffic goes out (our own exits, wholesale networks), what each source carried,
 * earned and cost over the last 7 or 30 UTC days, its alarms and last probe; admins add sources and change
 * weights, states and costs. Below, a source's days reconciled with its vendor's usage export (admins import it).
 */
export function SupplyPage({ staffRole }: { staffRole: StaffRole }) {
  useDocumentTitle('Supply · Console');
  const listId = useId();
  const [params, setParams] = useSearchParams();
  const days = rangeOf(params);
  const supply = useSupply(days);
  const canChange = staffRole === 'admin';
  const data = supply.data;
  const range = data?.range;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Supply"
        description={
          canChange
            ? 'Where each pool’s traffic goes out, what every source carried, earned and cost, and its alarms.'
            : 'Where each pool’s traffic goes out, what every source carried, earned and cost. Only admins add and change sources.'
        }
        actions={canChange ? <AddSourceDialog /> : null}
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SegmentedControl
          label="Range"
          value={String(days) as '7' | '30'}
          onValueChange={(value) => setParams(value === '30' ? { days: '30' } : {})}
          options={RANGES}
        />
        <Button asChild variant="secondary" size="sm">
          <a href={supplyCsvUrl(days)} download>
            <DownloadIcon aria-hidden="true" />
            CSV, {days} days
          </a>
        </Button>
      </div>
      {data ? <Totals totals={data.totals} /> : null}

      <Card aria-labelledby={listId}>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-x-3 gap-y-1">
          <CardTitle id={listId}>Sources</CardTitle>
          <p className="text-sm text-gray-500" role="status" aria-live="polite">
            {range ? `${formatUtcDay(range.from)} to ${formatUtcDay(range.to)}, UTC days` : ''}
          </p>
        </CardHeader>
        {supply.isPending ? (
          <LoadingRows what="sources" rows={4} className="p-5 sm:px-6" />
        ) : supply.isError ? (
          <div className="p-5 sm:px-6">
            <ErrorState
              error={supply.error}
              fallback="The sources could not be loaded. Please try again."
              onRetry={() => void supply.refetch()}
              isRetrying={supply.isFetching}
            />
          </div>
        ) : supply.data.sources.length === 0 ? (
          <EmptyState icon={NetworkIcon} title="No sources yet">
            {canChange ? 'Add one with Add source above, or ' : 'An admin adds them here, or '}
            with <code className="font-mono text-gray-800">bytegate sources add</code>: a wholesale network or
            a pool’s own exits.
          </EmptyState>
        ) : (
          <div
            aria-busy={supply.isFetching || undefined}
            className={cn(supply.isPlaceholderData && 'opacity-60')}
          >
            <SourcesTable sources={supply.data.sources} days={days} canChange={canChange} />
          </div>
        )}
      </Card>
      {data && data.sources.length > 0 ? (
        <ReconciliationCard sources={data.sources} days={days} canChange={canChange} />
      ) : null}
    </div>
  );
}
