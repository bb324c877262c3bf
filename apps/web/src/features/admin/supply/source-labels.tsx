import type { AdminSource, SourceState } from '@bytegate/contracts/admin-supply';
import { POOL_NAMES } from '@bytegate/contracts/pools';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatDollars } from '../format.ts';

// How the Supply page names a source's state, kind and money.

export const SOURCE_STATE_LABELS: Record<SourceState, string> = {
  active: 'Active',
  draining: 'Draining',
  off: 'Off',
};

/** What each state does to traffic, as the change dialog offers it. */
export const SOURCE_STATE_MEANINGS: Record<SourceState, string> = {
  active: 'takes new connections',
  draining: 'keeps its sticky sessions, takes no new connections',
  off: 'takes no connections; its sticky sessions move',
};

const TONES = { active: 'success', draining: 'warning', off: 'neutral' } as const;
const DOTS: Record<SourceState, string> = {
  active: 'bg-emerald-500',
  draining: 'bg-amber-500',
  off: 'bg-gray-400',
};

/** A source's state, with a dot so it does not rest on colour alone. */
export function SourceStateBadge({ state }: { state: SourceState }) {
  return (
    <Badge tone={TONES[state]} className="gap-1.5">
      <span aria-hidden="true" className={`size-1.5 rounded-full ${DOTS[state]}`} />
      {SOURCE_STATE_LABELS[state]}
    </Badge>
  );
}

/** The vendors' names as they write them; a grammar this build does not know shows as it is. */
export const GRAMMAR_LABELS: Record<string, string> = {
  brightdata: 'Bright Data',
  oxylabs: 'Oxylabs',
  decodo: 'Decodo',
  iproyal: 'IPRoyal',
  webshare: 'Webshare',
  soax: 'SOAX',
  template: 'Template',
};

/** 'Own exits', or 'Network · Oxylabs'. */
export function sourceKindLabel(source: Pick<AdminSource, 'kind' | 'grammar'>): string {
  if (source.kind === 'exits') {
    return 'Own exits';
  }
  return `Network · ${source.grammar ? (GRAMMAR_LABELS[source.grammar] ?? source.grammar) : 'no grammar'}`;
}

/** 'Residential · Network · Oxylabs'. */
export const sourceSummary = (source: AdminSource) =>
  `${POOL_NAMES[source.pool]} · ${sourceKindLabel(source)}`;

/** An alarm as a sentence: the gateway writes it lower-case, to follow other words in its log. */
export const alarmSentence = (alarm: string) => alarm.charAt(0).toUpperCase() + alarm.slice(1);

/** Whole cents as dollars: 278 is '$2.78', -51 is '-$0.51'. */
export const formatCents = (cents: number) => formatDollars(cents / 100);

/** A margin, red when the source lost money. */
export function Margin({ cents, className }: { cents: number; className?: string }) {
  return (
    <span className={cn('tabular-nums', cents < 0 ? 'font-medium text-red-700' : 'text-gray-900', className)}>
      {formatCents(cents)}
    </span>
  );
}

/** One figure of a phone's card: its name above its value. */
export function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-gray-500">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}
