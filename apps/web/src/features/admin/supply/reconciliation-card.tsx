import type { AdminSourceWithTotals, SupplyRange } from '@bytegate/contracts/admin-supply';
import type { ReconciliationResponse } from '@bytegate/contracts/admin-supply-reconciliation';
import { FileSpreadsheetIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useReconciliation } from '../../../api/use-admin-supply.ts';
import { Card, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';
import { SelectField } from '../exits/select-field.tsx';
import { formatGb, formatUtcDay } from '../format.ts';
import { EmptyState, ErrorState, LoadingRows } from '../states.tsx';
import { ImportVendorUsageDialog } from './import-vendor-usage-dialog.tsx';
import {
  formatDifferenceBytes,
  formatDifferenceCents,
  formatDifferencePct,
  ReconciliationDays,
} from './reconciliation-days.tsx';

interface ReconciliationCardProps {
  sources: AdminSourceWithTotals[];
  days: SupplyRange;
  /** Admins import a vendor's usage; support reads. */
  canChange: boolean;
}

/** The days compared over the range: how many, how many flagged, and the difference with its cost. */
function Summary({ answer }: { answer: ReconciliationResponse }) {
  const { totals } = answer;
  const cards: Array<[string, string, string]> = [
    ['Days compared', `${totals.days} of ${answer.days.length}`, 'days with the vendor’s figure'],
    ['Flagged', String(totals.flaggedDays), `over ${answer.tolerancePct}% apart`],
    [
      'Difference',
      totals.days === 0 ? '—' : formatDifferencePct(totals.differencePct),
      totals.days === 0
        ? 'nothing to compare'
        : `vendor ${formatGb(totals.vendorBytes)}, ours ${formatGb(totals.carriedBytes)}`,
    ],
    [
      'Its cost',
      totals.days === 0 ? '—' : formatDifferenceCents(totals.differenceCostCents),
      totals.days === 0 ? 'nothing to compare' : formatDifferenceBytes(totals.differenceBytes),
    ],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 px-5 pt-4 sm:px-6 lg:grid-cols-4">
      {cards.map(([label, value, note]) => (
        <div
          key={label}
          className={cn(
            'rounded-lg border border-gray-200 px-3 py-2',
            label === 'Flagged' && totals.flaggedDays > 0 && 'border-red-200 bg-red-50/60',
          )}
        >
          <dt className="text-xs text-gray-600">{label}</dt>
          <dd className="text-lg font-semibold text-gray-900 tabular-nums">{value}</dd>
          <dd className="text-xs break-words text-gray-500">{note}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The sources a reconciliation can be about: wholesale networks first (they send usage exports). */
const byNetworkFirst = (sources: AdminSourceWithTotals[]) =>
  [...sources].sort((a, b) => Number(b.kind === 'network') - Number(a.kind === 'network'));

/**
 * Reconciliation on the Supply page: one source's UTC days of the range against what its vendor's usage
 * export says, flagged above the tolerance (SUPPLY_RECONCILE_TOLERANCE_PCT), with what each difference
 * costs; an admin imports the export here.
 */
export function ReconciliationCard({ sources, days, canChange }: ReconciliationCardProps) {
  const titleId = useId();
  const ordered = byNetworkFirst(sources);
  const [chosenId, setChosenId] = useState<string | undefined>(undefined);
  const source = ordered.find((candidate) => candidate.id === chosenId) ?? ordered[0];
  const answer = useReconciliation(source?.id, days);
  if (!source) {
    return null;
  }
  const label = `Reconciliation of ${source.name}`;
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader className="space-y-3">
        <div className="space-y-1">
          <CardTitle id={titleId}>Reconciliation</CardTitle>
          <p className="text-sm text-gray-600">
            What we carried each UTC day against the vendor’s usage export
            {answer.data ? `, flagged when over ${answer.data.tolerancePct}% apart` : ''}.
            {canChange ? '' : ' Only admins import usage.'}
          </p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="sm:w-80">
            <SelectField
              label="Source"
              value={source.id}
              onChange={(event) => setChosenId(event.target.value)}
            >
              {ordered.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </SelectField>
          </div>
          {canChange ? <ImportVendorUsageDialog source={source} /> : null}
        </div>
      </CardHeader>
      {answer.isPending ? (
        <LoadingRows what="the reconciliation" rows={4} className="p-5 sm:px-6" />
      ) : answer.isError ? (
        <div className="p-5 sm:px-6">
          <ErrorState
            error={answer.error}
            fallback="The reconciliation could not be loaded. Please try again."
            onRetry={() => void answer.refetch()}
            isRetrying={answer.isFetching}
          />
        </div>
      ) : answer.data.totals.days === 0 ? (
        <EmptyState icon={FileSpreadsheetIcon} title="No vendor figures for these days">
          {formatUtcDay(answer.data.range.from)} to {formatUtcDay(answer.data.range.to)}: no usage export of{' '}
          {source.name} covers them.{' '}
          {canChange ? (
            'Import one with Import usage, or bytegate sources reconcile.'
          ) : (
            <>
              An admin imports it, or runs{' '}
              <code className="font-mono text-gray-800">bytegate sources reconcile</code>.
            </>
          )}
        </EmptyState>
      ) : (
        <div aria-busy={answer.isFetching || undefined} className="space-y-4">
          <Summary answer={answer.data} />
          <ReconciliationDays days={answer.data.days} tolerancePct={answer.data.tolerancePct} label={label} />
        </div>
      )}
    </Card>
  );
}
