import type { AdminLedgerEntry } from '@bytegate/contracts/admin';
import { WalletIcon } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardFooter, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { formatDateTime, formatDollars, formatSignedDollars } from './format.ts';
import { EmptyState } from './states.tsx';

/** Entries shown before 'Show all'. */
const COLLAPSED_ROWS = 8;

const KIND_LABELS: Record<AdminLedgerEntry['kind'], string> = {
  topup: 'Top-up',
  purchase: 'Purchase',
  refund: 'Refund',
  adjustment: 'Adjustment',
};

/** The balance's ledger: every credit and debit, newest first, as the server keeps it (latest 100). */
export function LedgerCard({ ledger }: { ledger: AdminLedgerEntry[] }) {
  const [isExpanded, setExpanded] = useState(false);
  const shown = isExpanded ? ledger : ledger.slice(0, COLLAPSED_ROWS);
  return (
    <Card aria-labelledby="admin-ledger-title">
      <CardHeader>
        <CardTitle id="admin-ledger-title">Balance ledger</CardTitle>
      </CardHeader>
      {ledger.length === 0 ? (
        <EmptyState icon={WalletIcon} title="No balance movements">
          Top-ups, purchases, refunds and adjustments appear here.
        </EmptyState>
      ) : (
        <>
          <ul className="divide-y divide-gray-100" aria-label="Ledger entries">
            {shown.map((entry) => (
              <li key={entry.id} className="flex items-start justify-between gap-4 px-5 py-3 sm:px-6">
                <div className="min-w-0 space-y-0.5">
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone={entry.kind === 'adjustment' ? 'brand' : 'neutral'}>
                      {KIND_LABELS[entry.kind]}
                    </Badge>
                    <time dateTime={entry.createdAt} className="text-xs text-gray-500">
                      {formatDateTime(entry.createdAt)}
                    </time>
                  </div>
                  {entry.note ? <p className="text-sm break-words text-gray-700">{entry.note}</p> : null}
                </div>
                <div className="shrink-0 text-right">
                  <span
                    className={cn(
                      'block font-semibold tabular-nums',
                      entry.amount >= 0 ? 'text-emerald-700' : 'text-gray-900',
                    )}
                  >
                    {formatSignedDollars(entry.amount)}
                  </span>
                  <span className="block text-xs text-gray-500 tabular-nums">
                    Balance {formatDollars(entry.balanceAfter)}
                  </span>
                </div>
              </li>
            ))}
          </ul>
          {ledger.length > COLLAPSED_ROWS ? (
            <CardFooter className="justify-center">
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setExpanded(!isExpanded)}
                aria-expanded={isExpanded}
              >
                {isExpanded ? 'Show fewer' : `Show all ${ledger.length} entries`}
              </Button>
            </CardFooter>
          ) : null}
        </>
      )}
    </Card>
  );
}
