import type { AdminSource } from '@bytegate/contracts/admin-supply';
import { formatMs } from '../exits/exit-status.tsx';
import { formatAgo } from '../format.ts';

/**
 * A wholesale network's last probe (the source probe job): whether it worked and how fast, and the exit
 * IP it saw, or how many times in a row it failed and why, in our words (unless its alarm says so); when the probes hold it down, that the routing tries it
 * last. Nothing for our own exits (the exit probe checks each of them, on the Exits page).
 */
export function SourceProbeSummary({ source }: { source: AdminSource }) {
  if (source.kind !== 'network') {
    return null;
  }
  const probe = source.lastProbe;
  if (!probe) {
    return <p className="text-xs text-gray-500">Not probed yet</p>;
  }
  return (
    <div className="space-y-0.5 text-xs whitespace-normal">
      <p className={probe.isOk ? 'font-medium text-emerald-700' : 'font-medium text-red-700'}>
        <span className="sr-only">Last probe: </span>
        {probe.isOk
          ? `Probe OK · ${formatMs(probe.connectMs)}`
          : `Probe failed${probe.consecutiveFailures > 1 ? ` ${probe.consecutiveFailures}× in a row` : ''}`}
      </p>
      <p className="text-gray-600">
        <time dateTime={probe.checkedAt}>{formatAgo(probe.checkedAt)}</time>
      </p>
      {probe.exitIp ? (
        <p className="whitespace-nowrap text-gray-600 tabular-nums">exit {probe.exitIp}</p>
      ) : null}
      {/* The alarm beside says it already when the refusal raised one. */}
      {!probe.isOk && probe.error && !source.alarm ? <p className="text-gray-600">{probe.error}</p> : null}
      {probe.isHeldDown ? <p className="font-medium text-amber-800">Tried last until a probe works</p> : null}
    </div>
  );
}
