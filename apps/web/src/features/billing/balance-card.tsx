import { WalletIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useBalance } from '../../api/use-balance.ts';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The account balance, with an action beside it. */
export function BalanceCard({ action }: { action?: ReactNode }) {
  const { data, isPending, isError } = useBalance();
  return (
    <Card className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6">
      <div className="flex items-center gap-4">
        <span className="grid size-11 place-items-center rounded-xl bg-brand-50 text-brand-600">
          <WalletIcon className="size-5" aria-hidden="true" />
        </span>
        <div>
          <p className="text-sm font-medium text-gray-600">Account balance</p>
          {isPending ? (
            <Skeleton className="mt-1 h-8 w-28" />
          ) : isError ? (
            <p className="text-sm text-red-600">Failed to fetch balance</p>
          ) : (
            <p className="text-3xl font-semibold tracking-tight text-gray-900" data-testid="balance">
              {usd.format(data.balance)}
            </p>
          )}
        </div>
      </div>
      {action}
    </Card>
  );
}
