import type { ReconciliationDay } from '@bytegate/contracts/admin-supply-reconciliation';
import { AlertTriangleIcon, CheckIcon } from 'lucide-react';
import { Badge } from '../../../components/ui/badge.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatGb, formatInteger } from '../format.ts';
import { Figure, formatCents } from './source-labels.tsx';

// A source's days against its vendor's figures: a table from md up, a list of days on a phone. A flagged
// day says so in words and with an icon, its row tinted too: never by colour alone.

const dayName = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : text);
/** +5.00%, or 'we carried none' when there is nothing to take a percentage of. */
export const formatDifferencePct = (pct: number | null) =>
  pct === null ? 'we carried none' : signed(`${pct.toFixed(2)}%`, pct);
/** +536,870,912 bytes. */
export const formatDifferenceBytes = (bytes: number) => `${signed(formatInteger(bytes), bytes)} bytes`;
/** +$0.60, -$0.15. */
export const formatDifferenceCents = (cents: number) => signed(formatCents(cents), cents);

function DayName({ date }: { date: string }) {
  return <time dateTime={date}>{dayName.format(new Date(`${date}T00:00:00Z`))}</time>;
}

/** Flagged (over the tolerance), within it, or no vendor figure for the day. */
export function ReconciliationStatus({
  day,
  tolerancePct,
}: {
  day: ReconciliationDay;
  tolerancePct: number;
}) {
  if (day.vendorBytes === null) {
    return <span className="text-sm text-gray-500">No vendor figure</span>;
  }
  if (day.isFlagged) {
    return (
      <Badge tone="danger" className="gap-1">
        <AlertTriangleIcon className="size-3.5" aria-hidden="true" />
        Flagged: over {tolerancePct}%
      </Badge>
    );
  }
  return (
    <Badge tone="success" className="gap-1">
      <CheckIcon className="size-3.5" aria-hidden="true" />
      Within {tolerancePct}%
    </Badge>
  );
}

function Difference({ day }: { day: ReconciliationDay }) {
  if (day.differenceBytes === null) {
    return <span className="text-gray-500">—</span>;
  }
  return (
    <>
      <span className={cn(day.isFlagged && 'font-medium text-red-700')}>
        {formatDifferencePct(day.differencePct)}
      </span>
      <span className="block text-xs text-gray-500">{formatDifferenceBytes(day.differenceBytes)}</span>
    </>
  );
}

interface DaysProps {
  days: ReconciliationDay[];
  tolerancePct: number;
  label: string;
}

/** Newest first: the days an operator looks at after an import are the latest. */
export function ReconciliationDays({ days, tolerancePct, label }: DaysProps) {
  const rows = [...days].reverse();
  return (
    <>
      <div className="hidden md:block">
        <Table aria-label={label}>
          <TableHeader>
            <TableRow>
              <TableHead>Day</TableHead>
              <TableHead className="text-right">Ours</TableHead>
              <TableHead className="text-right">Vendor</TableHead>
              <TableHead className="text-right">Difference</TableHead>
              <TableHead className="text-right">Its cost</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((day) => (
              <TableRow key={day.date} className={cn(day.isFlagged && 'bg-red-50/60 hover:bg-red-50')}>
                <TableCell>
                  <DayName date={day.date} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatGb(day.carriedBytes)}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {day.vendorBytes === null ? (
                    <span className="text-gray-500">—</span>
                  ) : (
                    formatGb(day.vendorBytes)
                  )}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  <Difference day={day} />
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {day.differenceCostCents === null ? (
                    <span className="text-gray-500">—</span>
                  ) : (
                    formatDifferenceCents(day.differenceCostCents)
                  )}
                </TableCell>
                <TableCell>
                  <ReconciliationStatus day={day} tolerancePct={tolerancePct} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="divide-y divide-gray-100 md:hidden" aria-label={label}>
        {rows.map((day) => (
          <li key={day.date} className={cn('space-y-2 px-5 py-3', day.isFlagged && 'bg-red-50/60')}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm font-medium text-gray-900">
                <DayName date={day.date} />
              </p>
              <ReconciliationStatus day={day} tolerancePct={tolerancePct} />
            </div>
            <dl className="grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
              <Figure label="Ours">{formatGb(day.carriedBytes)}</Figure>
              <Figure label="Vendor">{day.vendorBytes === null ? '—' : formatGb(day.vendorBytes)}</Figure>
              <Figure label="Difference">
                <Difference day={day} />
              </Figure>
              <Figure label="Its cost">
                {day.differenceCostCents === null ? '—' : formatDifferenceCents(day.differenceCostCents)}
              </Figure>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
