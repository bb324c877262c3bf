import { POOL_NAMES } from '@bytegate/contracts/pools';
import { ActivityIcon } from 'lucide-react';
import { useLiveStats } from '../../api/use-stats.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { formatCount, formatRate } from './stats-view.ts';

/** Live: each plan's connections open now and its throughput, refreshed every 2 seconds. */
export function LiveCard() {
  const { live, isConnected, problem } = useLiveStats();
  const plans = live?.plans ?? [];
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div className="space-y-1">
          <CardTitle>Live</CardTitle>
          <CardDescription>
            {live?.scope === 'unavailable'
              ? 'The gateway runs in another process here, without REDIS_URL: nothing to show live.'
              : 'Connections open now and throughput per plan, every 2 seconds.'}
          </CardDescription>
        </div>
        <span className="flex items-center gap-1.5 text-xs font-medium text-gray-600">
          <span
            aria-hidden="true"
            className={cn(
              'size-2 rounded-full',
              isConnected ? 'animate-pulse bg-emerald-500' : 'bg-gray-300',
            )}
          />
          {isConnected ? 'Live' : problem ? 'Paused' : 'Connecting…'}
        </span>
      </CardHeader>
      <CardContent>
        {problem && !isConnected ? (
          <p role="status" className="mb-3 text-sm text-amber-700" data-testid="live-problem">
            {problem}
          </p>
        ) : null}
        {plans.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-gray-600" data-testid="live-idle">
            <ActivityIcon className="size-4 text-gray-400" aria-hidden="true" />
            No connections open right now.
          </p>
        ) : (
          <ul aria-label="Plans live" className="divide-y divide-gray-100" aria-live="polite">
            {plans.map((plan) => (
              <li
                key={plan.subUserId}
                className="flex flex-wrap items-center justify-between gap-x-6 gap-y-1 py-2.5 text-sm"
              >
                <span className="font-medium text-gray-900">{POOL_NAMES[plan.pool]}</span>
                <span className="flex gap-6 tabular-nums text-gray-700">
                  <span data-testid="live-connections">
                    {formatCount(plan.openConnections)}{' '}
                    {plan.openConnections === 1 ? 'connection' : 'connections'}
                  </span>
                  <span data-testid="live-throughput">{formatRate(plan.bytesPerSecond)}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
