import type { AdminExit, ExitStatus } from '@bytegate/contracts/admin-exits';
import { Badge } from '../../../components/ui/badge.tsx';
import { formatAgo } from '../format.ts';

export const EXIT_STATUS_LABELS: Record<ExitStatus, string> = {
  active: 'In rotation',
  out_of_rotation: 'Out of rotation',
  disabled: 'Disabled',
};

const TONES = { active: 'success', out_of_rotation: 'warning', disabled: 'neutral' } as const;
const DOTS: Record<ExitStatus, string> = {
  active: 'bg-emerald-500',
  out_of_rotation: 'bg-amber-500',
  disabled: 'bg-gray-400',
};

/** Where an exit stands, with a dot so the state does not rest on colour alone. */
export function ExitStatusBadge({ status }: { status: ExitStatus }) {
  return (
    <Badge tone={TONES[status]} className="gap-1.5">
      <span aria-hidden="true" className={`size-1.5 rounded-full ${DOTS[status]}`} />
      {EXIT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** Share of connections that opened, as '98.5%' ('100%', '0%'); a dash without traffic. */
export function formatSuccessRate(rate: number | null): string {
  if (rate === null) {
    return '—';
  }
  const percent = rate * 100;
  return `${percent === 100 || percent === 0 ? percent.toFixed(0) : percent.toFixed(1)}%`;
}

export const formatMs = (ms: number | null) => (ms === null ? '—' : `${ms.toLocaleString('en-US')} ms`);

/** How the success rate reads at a glance: green from 95%, amber from 50%, red below. */
export function successTone(rate: number | null): string {
  if (rate === null) {
    return 'text-gray-500';
  }
  return rate >= 0.95 ? 'text-emerald-700' : rate >= 0.5 ? 'text-amber-700' : 'text-red-700';
}

/** Where an exit leaves from: its location, and the local address or the (masked) upstream proxy. */
export function exitPlace(exit: AdminExit): string {
  return [exit.country, exit.state, exit.city].filter(Boolean).join(' · ');
}

export function exitVia(exit: AdminExit): string {
  if (exit.kind === 'upstream') {
    return `via ${exit.upstream ?? 'upstream'}`;
  }
  return exit.localAddress ? `from ${exit.localAddress}` : 'from this host';
}

/** The last probe in words: 'OK 2 minutes ago', 'Failed 3× just now', or that none ran yet. */
export function ExitProbeSummary({ probe }: { probe: AdminExit['probe'] }) {
  if (!probe) {
    return <span className="text-gray-500">Not probed yet</span>;
  }
  return (
    <span className="inline-flex flex-col">
      <span className={probe.isOk ? 'font-medium text-emerald-700' : 'font-medium text-red-700'}>
        {probe.isOk
          ? `OK${probe.connectMs !== null ? ` · ${formatMs(probe.connectMs)}` : ''}`
          : `Failed${probe.consecutiveFailures > 1 ? ` ${probe.consecutiveFailures}× in a row` : ''}`}
      </span>
      <time dateTime={probe.checkedAt} className="text-xs text-gray-500">
        {formatAgo(probe.checkedAt)}
      </time>
    </span>
  );
}
