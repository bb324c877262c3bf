import type { AdminSource, SupplyRange } from '@bytegate/contracts/admin-supply';
import { CalendarDaysIcon } from 'lucide-react';
import { useSourceDays } from '../../../api/use-admin-supply.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
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
import { formatGb } from '../format.ts';
import { ErrorState, LoadingRows } from '../states.tsx';
import { Figure, formatCents, Margin } from './source-labels.tsx';

const dayName = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A source's figures day by day, newest first: staff of either role read it. */
export function SourceDaysDialog({ source, days }: { source: AdminSource; days: SupplyRange }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Days of ${source.name}`}>
          <CalendarDaysIcon aria-hidden="true" />
          Days
        </Button>
      </DialogTrigger>
      <DialogContent
        title={source.name}
        description={`Each UTC day of the last ${days}, newest first. Revenue is the billed GB at the pool’s price; cost, the carried GB at the cost per GB in force when it was carried (${formatCents(source.costPerGbCents)} a GB now).`}
        className="flex max-h-[calc(100dvh-2rem)] max-w-4xl flex-col"
      >
        <SourceDays source={source} days={days} />
      </DialogContent>
    </Dialog>
  );
}

/** Mounted only while the dialog is open, so its days are read only then. */
function SourceDays({ source, days }: { source: AdminSource; days: SupplyRange }) {
  const answer = useSourceDays(source.id, days);
  if (answer.isPending) {
    return <LoadingRows what="days" rows={6} />;
  }
  if (answer.isError) {
    return (
      <ErrorState
        error={answer.error}
        fallback="The days could not be loaded. Please try again."
        onRetry={() => void answer.refetch()}
        isRetrying={answer.isFetching}
      />
    );
  }
  const rows = [...answer.data.days].reverse();
  const label = `Days of ${source.name}`;
  // The days scroll inside the dialog: a region the keyboard can reach and scroll. A table from md up
  // (seven columns fit the dialog there), a list of days on a phone.
  return (
    <section
      aria-label={`${label}, scrollable`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with no focusable content must take focus to be scrolled from the keyboard (WCAG 2.1.1).
      tabIndex={0}
      className="-mx-6 min-h-0 overflow-y-auto border-t border-gray-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500"
    >
      <div className="hidden md:block">
        <Table aria-label={label}>
          <TableHeader className="sticky top-0">
            <TableRow>
              <TableHead>Day</TableHead>
              <TableHead className="text-right">Carried</TableHead>
              <TableHead className="text-right">Revenue</TableHead>
              <TableHead className="text-right">Cost</TableHead>
              <TableHead className="text-right">Margin</TableHead>
              <TableHead className="text-right">Success</TableHead>
              <TableHead className="text-right">Connect</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((day) => (
              <TableRow key={day.date}>
                <TableCell>
                  <DayName date={day.date} />
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {formatGb(day.carriedBytes)}
                  <p className="text-xs text-gray-500">billed {formatGb(day.billedBytes)}</p>
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatCents(day.revenueCents)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCents(day.costCents)}</TableCell>
                <TableCell className="text-right">
                  <Margin cents={day.marginCents} />
                </TableCell>
                <TableCell className={cn('text-right tabular-nums', successTone(day.successRate))}>
                  {formatSuccessRate(day.successRate)}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatMs(day.meanConnectMs)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="divide-y divide-gray-100 md:hidden" aria-label={label}>
        {rows.map((day) => (
          <li key={day.date} className="space-y-2 px-6 py-3">
            <p className="text-sm font-medium text-gray-900">
              <DayName date={day.date} />
            </p>
            <dl className="grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
              <Figure label="Carried">
                {formatGb(day.carriedBytes)}
                <span className="block text-xs text-gray-500">billed {formatGb(day.billedBytes)}</span>
              </Figure>
              <Figure label="Revenue">{formatCents(day.revenueCents)}</Figure>
              <Figure label="Cost">{formatCents(day.costCents)}</Figure>
              <Figure label="Margin">
                <Margin cents={day.marginCents} />
              </Figure>
              <Figure label="Success">
                <span className={successTone(day.successRate)}>{formatSuccessRate(day.successRate)}</span>
              </Figure>
              <Figure label="Connect">{formatMs(day.meanConnectMs)}</Figure>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DayName({ date }: { date: string }) {
  return <time dateTime={date}>{dayName.format(new Date(`${date}T00:00:00Z`))}</time>;
}
