import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { cn } from '../../lib/cn.ts';
import { displayName, summarizeUsage, type UsageTone } from './proxy-user-format.ts';

const FILL: Record<UsageTone, string> = {
  normal: 'bg-brand-500',
  near: 'bg-amber-500',
  reached: 'bg-red-500',
};

/**
 * A user's traffic in its cap's period: '0.4 of 1.5 GB this month' over a bar that fills as it is used,
 * with what is left; without a cap, what it used in its lifetime over an empty, dashed track ('No cap').
 */
export function ProxyUserUsage({ user, className }: { user: ProxyUser; className?: string }) {
  const usage = summarizeUsage(user);
  const name = displayName(user);
  return (
    <div className={cn('min-w-0 space-y-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="min-w-0 truncate font-medium text-gray-900" data-testid="proxy-user-usage">
          {usage.text}
        </span>
        <span
          className={cn(
            'shrink-0 text-xs',
            usage.tone === 'reached' ? 'font-medium text-red-700' : 'text-gray-500',
          )}
        >
          {usage.aside}
        </span>
      </div>
      {usage.percent === null ? (
        <div aria-hidden="true" className="h-2 rounded-full border border-dashed border-gray-300" />
      ) : (
        <div
          role="progressbar"
          aria-label={`Traffic of ${name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(usage.percent)}
          aria-valuetext={`${usage.text}, ${usage.aside}`}
          className="h-2 overflow-hidden rounded-full bg-gray-100"
        >
          <div
            className={cn('h-full rounded-full transition-[width]', FILL[usage.tone])}
            // A sliver shows that counting has started, even for a few bytes.
            style={{ width: `${usage.percent > 0 ? Math.max(usage.percent, 1.5) : 0}%` }}
          />
        </div>
      )}
    </div>
  );
}
