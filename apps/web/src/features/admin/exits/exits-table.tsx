import type { AdminExit } from '@bytegate/contracts/admin-exits';
import { POOL_NAMES } from '@bytegate/contracts/pools';
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
import { formatAgo, formatInteger } from '../format.ts';
import { ExitActions } from './exit-actions.tsx';
import {
  ExitProbeSummary,
  ExitStatusBadge,
  exitPlace,
  exitVia,
  formatMs,
  formatSuccessRate,
  successTone,
} from './exit-status.tsx';

interface ExitsTableProps {
  exits: AdminExit[];
  /** Admins get each row's actions; support reads. */
  canChange: boolean;
}

/** Why an exit is out of rotation, under its badge. */
function OutReason({ exit, className }: { exit: AdminExit; className?: string }) {
  if (exit.status !== 'out_of_rotation' || !exit.outOfRotationReason) {
    return null;
  }
  return (
    <p className={cn('max-w-64 text-xs whitespace-normal text-amber-800', className)}>
      {exit.outOfRotationReason}
      {exit.outOfRotationAt ? <> · {formatAgo(exit.outOfRotationAt)}</> : null}
    </p>
  );
}

/** The last real-traffic error, shortened: the whole text is in its title. */
function LastError({ exit }: { exit: AdminExit }) {
  const { lastError, lastErrorAt } = exit.traffic;
  if (!lastError) {
    return null;
  }
  return (
    <p className="flex max-w-64 items-start gap-1 text-xs whitespace-normal text-red-700" title={lastError}>
      <AlertTriangleIcon className="mt-0.5 size-3 shrink-0" aria-hidden="true" />
      <span className="line-clamp-2 break-all">
        <span className="sr-only">Last error: </span>
        {lastError}
        {lastErrorAt ? <span className="text-gray-500"> · {formatAgo(lastErrorAt)}</span> : null}
      </span>
    </p>
  );
}

function Success({ exit }: { exit: AdminExit }) {
  const { successRate, connects, failures } = exit.traffic;
  return (
    <span className="inline-flex flex-col">
      <span className={cn('font-medium tabular-nums', successTone(successRate))}>
        {formatSuccessRate(successRate)}
      </span>
      <span className="text-xs text-gray-500 tabular-nums">
        {connects + failures === 0
          ? 'no traffic'
          : `${formatInteger(connects)} ok, ${formatInteger(failures)} failed`}
      </span>
    </span>
  );
}

/** The inventory: a table on wide screens, cards on a phone; health from real traffic and the probe. */
export function ExitsTable({ exits, canChange }: ExitsTableProps) {
  return (
    <>
      <div className="hidden lg:block">
        <Table aria-label="Exits">
          <TableHeader>
            <TableRow>
              <TableHead>Exit</TableHead>
              <TableHead>Pool</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Success, 24 h</TableHead>
              <TableHead className="text-right">Avg connect</TableHead>
              <TableHead>Last probe</TableHead>
              {canChange ? (
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {exits.map((exit) => (
              <TableRow key={exit.id} className="align-top">
                <TableCell className="align-top">
                  <p className="font-medium text-gray-900">{exit.name}</p>
                  <p className="text-xs text-gray-600">{exitPlace(exit)}</p>
                  <p className="max-w-72 truncate text-xs text-gray-500" title={exitVia(exit)}>
                    {exitVia(exit)}
                  </p>
                </TableCell>
                <TableCell className="align-top">{POOL_NAMES[exit.pool]}</TableCell>
                <TableCell className="space-y-1 align-top">
                  <ExitStatusBadge status={exit.status} />
                  <OutReason exit={exit} />
                </TableCell>
                <TableCell className="space-y-1 align-top">
                  <Success exit={exit} />
                  <LastError exit={exit} />
                </TableCell>
                <TableCell className="text-right align-top tabular-nums">
                  {formatMs(exit.traffic.avgConnectMs)}
                </TableCell>
                <TableCell className="align-top">
                  <ExitProbeSummary probe={exit.probe} />
                  {exit.probe && !exit.probe.isOk && exit.probe.error ? (
                    <p className="max-w-56 truncate text-xs text-red-700" title={exit.probe.error}>
                      {exit.probe.error}
                    </p>
                  ) : null}
                </TableCell>
                {canChange ? (
                  <TableCell className="text-right align-top">
                    <ExitActions exit={exit} />
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="divide-y divide-gray-100 lg:hidden" aria-label="Exits">
        {exits.map((exit) => (
          <li key={exit.id} className="space-y-3 px-5 py-4">
            <div className="flex items-start gap-3">
              <div className="min-w-0 flex-1 space-y-1">
                <p className="font-medium text-gray-900">{exit.name}</p>
                <p className="text-sm text-gray-600">
                  {POOL_NAMES[exit.pool]} · {exitPlace(exit)}
                </p>
                <p className="truncate text-xs text-gray-500">{exitVia(exit)}</p>
              </div>
              {canChange ? <ExitActions exit={exit} /> : null}
            </div>
            <div className="space-y-1">
              <ExitStatusBadge status={exit.status} />
              <OutReason exit={exit} />
            </div>
            <dl className="grid grid-cols-3 gap-3 text-sm">
              <div>
                <dt className="text-xs text-gray-500">Success, 24 h</dt>
                <dd>
                  <Success exit={exit} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-gray-500">Avg connect</dt>
                <dd className="tabular-nums">{formatMs(exit.traffic.avgConnectMs)}</dd>
              </div>
              <div>
                <dt className="text-xs text-gray-500">Last probe</dt>
                <dd>
                  <ExitProbeSummary probe={exit.probe} />
                </dd>
              </div>
            </dl>
            <LastError exit={exit} />
          </li>
        ))}
      </ul>
    </>
  );
}
