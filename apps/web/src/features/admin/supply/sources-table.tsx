import type { AdminSourceWithTotals, SupplyRange } from '@bytegate/contracts/admin-supply';
import { AlertTriangleIcon } from 'lucide-react';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatMs, formatSuccessRate, successTone } from '../exits/exit-status.tsx';
import { formatAgo, formatGb, formatInteger } from '../format.ts';
import { ChangeSourceDialog, ClearAlarmDialog } from './source-actions.tsx';
import { SourceCatalogDialog } from './source-catalog-dialog.tsx';
import { SourceDaysDialog } from './source-days-dialog.tsx';
import {
  alarmSentence,
  Figure,
  formatCents,
  Margin,
  SourceStateBadge,
  sourceSummary,
} from './source-labels.tsx';
import { SourceProbeSummary } from './source-probe.tsx';

interface SourcesTableProps {
  sources: AdminSourceWithTotals[];
  days: SupplyRange;
  /** Admins change sources and clear alarms; support reads. */
  canChange: boolean;
}

/** The alarm staff must handle, in our words, and when it was raised; admins may clear it. */
function Alarm({ source, canChange }: { source: AdminSourceWithTotals; canChange: boolean }) {
  if (!source.alarm) {
    return <span className="text-gray-500">None</span>;
  }
  return (
    <div className="space-y-1">
      <p className="flex items-start gap-1.5 text-sm whitespace-normal text-red-700">
        <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          <span className="sr-only">Alarm: </span>
          {alarmSentence(source.alarm)}
          {source.alarmAt ? (
            <time dateTime={source.alarmAt} className="block text-xs text-gray-600">
              {formatAgo(source.alarmAt)}
            </time>
          ) : null}
        </span>
      </p>
      {canChange ? <ClearAlarmDialog source={source} /> : null}
    </div>
  );
}

function Success({ source }: { source: AdminSourceWithTotals }) {
  const { successRate, connects, failures } = source.totals;
  return (
    <span className="inline-flex flex-col">
      <span className={cn('font-medium tabular-nums', successTone(successRate))}>
        {formatSuccessRate(successRate)}
      </span>
      <span className="text-xs text-gray-500 tabular-nums">
        {connects + failures === 0
          ? 'no dials'
          : `${formatInteger(failures)} of ${formatInteger(connects + failures)} failed`}
      </span>
    </span>
  );
}

/**
 * A row's actions: its days and a network's catalog (anyone; admins import into it), and the change
 * (admins); stacked, so the table fits 1280 px.
 */
function Actions({
  source,
  days,
  canChange,
}: {
  source: AdminSourceWithTotals;
  days: SupplyRange;
  canChange: boolean;
}) {
  return (
    <div className="flex flex-col items-stretch gap-1">
      <SourceDaysDialog source={source} days={days} />
      {source.kind === 'network' ? <SourceCatalogDialog source={source} canChange={canChange} /> : null}
      {canChange ? <ChangeSourceDialog source={source} /> : null}
    </div>
  );
}

/** Narrower cells than the console's other tables: eleven columns share 1280 px here. */
const cell = 'px-2 align-top';

/** The sources with their figures: a table on wide screens, cards on a phone. */
export function SourcesTable({ sources, days, canChange }: SourcesTableProps) {
  return (
    <>
      <div className="hidden lg:block">
        <Table aria-label="Sources">
          <TableHeader>
            <TableRow>
              <TableHead className="px-2">Source</TableHead>
              <TableHead className="px-2">State</TableHead>
              <TableHead className="px-2 text-right">Cost/GB</TableHead>
              <TableHead className="px-2 text-right">Carried</TableHead>
              <TableHead className="px-2 text-right">Revenue</TableHead>
              <TableHead className="px-2 text-right">Cost</TableHead>
              <TableHead className="px-2 text-right">Margin</TableHead>
              <TableHead className="px-2">Success</TableHead>
              <TableHead className="px-2 text-right">Connect</TableHead>
              <TableHead className="px-2">Alarm</TableHead>
              <TableHead className="px-2">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {sources.map((source) => (
              <TableRow key={source.id}>
                <TableCell className={cell}>
                  <p className="font-medium text-gray-900">{source.name}</p>
                  <p className="text-xs text-gray-600">{sourceSummary(source)}</p>
                  {source.url ? (
                    <p className="max-w-52 text-xs break-all text-gray-500">{source.url}</p>
                  ) : null}
                </TableCell>
                <TableCell className={cn(cell, 'max-w-44 min-w-32 space-y-1')}>
                  <SourceStateBadge state={source.state} />
                  <p className="text-xs text-gray-600 tabular-nums">weight {formatInteger(source.weight)}</p>
                  <SourceProbeSummary source={source} />
                </TableCell>
                <TableCell className={cn(cell, 'text-right tabular-nums')}>
                  {formatCents(source.costPerGbCents)}
                </TableCell>
                <TableCell className={cn(cell, 'text-right tabular-nums')}>
                  {formatGb(source.totals.carriedBytes)}
                  <p className="text-xs text-gray-500">billed {formatGb(source.totals.billedBytes)}</p>
                </TableCell>
                <TableCell className={cn(cell, 'text-right tabular-nums')}>
                  {formatCents(source.totals.revenueCents)}
                </TableCell>
                <TableCell className={cn(cell, 'text-right tabular-nums')}>
                  {formatCents(source.totals.costCents)}
                </TableCell>
                <TableCell className={cn(cell, 'text-right')}>
                  <Margin cents={source.totals.marginCents} />
                </TableCell>
                <TableCell className={cell}>
                  <Success source={source} />
                </TableCell>
                <TableCell className={cn(cell, 'text-right tabular-nums')}>
                  {formatMs(source.totals.meanConnectMs)}
                </TableCell>
                <TableCell className={cn(cell, 'min-w-44 max-w-56 whitespace-normal')}>
                  <Alarm source={source} canChange={canChange} />
                </TableCell>
                <TableCell className={cell}>
                  <Actions source={source} days={days} canChange={canChange} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="divide-y divide-gray-100 lg:hidden" aria-label="Sources">
        {sources.map((source) => (
          <li key={source.id} className="space-y-3 px-5 py-4">
            <div className="min-w-0 space-y-1">
              <p className="font-medium text-gray-900">{source.name}</p>
              <p className="text-sm text-gray-600">{sourceSummary(source)}</p>
              {source.url ? <p className="text-xs break-all text-gray-500">{source.url}</p> : null}
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1 pt-1 text-xs text-gray-600 tabular-nums">
                <SourceStateBadge state={source.state} />
                <span>weight {formatInteger(source.weight)}</span>
                <span aria-hidden="true">·</span>
                <span>{formatCents(source.costPerGbCents)} a GB</span>
              </p>
            </div>
            <dl className="grid grid-cols-3 gap-x-3 gap-y-3 text-sm">
              <Figure label="Carried">{formatGb(source.totals.carriedBytes)}</Figure>
              <Figure label="Revenue">{formatCents(source.totals.revenueCents)}</Figure>
              <Figure label="Cost">{formatCents(source.totals.costCents)}</Figure>
              <Figure label="Margin">
                <Margin cents={source.totals.marginCents} />
              </Figure>
              <Figure label="Success">
                <Success source={source} />
              </Figure>
              <Figure label="Connect">{formatMs(source.totals.meanConnectMs)}</Figure>
            </dl>
            <SourceProbeSummary source={source} />
            {source.alarm ? <Alarm source={source} canChange={canChange} /> : null}
            <div className="flex flex-wrap items-center gap-2">
              <SourceDaysDialog source={source} days={days} />
              {source.kind === 'network' ? (
                <SourceCatalogDialog source={source} canChange={canChange} />
              ) : null}
              {canChange ? <ChangeSourceDialog source={source} /> : null}
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
