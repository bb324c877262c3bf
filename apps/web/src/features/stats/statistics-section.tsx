import { POOL_NAMES } from '@bytegate/contracts/pools';
import { useEffect, useMemo, useState } from 'react';
import { statsCsvUrl } from '../../api/stats-client.ts';
import { useStatsCredentials, useStatsErrors, useStatsSeries } from '../../api/use-stats.ts';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { ErrorState } from '../admin/states.tsx';
import { ErrorsCard } from './errors-card.tsx';
import { HostsCard } from './hosts-card.tsx';
import { LiveCard } from './live-card.tsx';
import { StatsCharts, StatsSummary } from './stats-charts.tsx';
import { StatsToolbar } from './stats-toolbar.tsx';
import { initialView, PERIOD_CHOICES, queryOf, rangeOf, type StatsView } from './stats-view.ts';

/**
 * Statistics: usage over a period (24 h to 90 d, or dates), hourly or daily, for all plans, one pool or
 * one credential: totals, charts of traffic, requests, the success rate and errors by code, target hosts,
 * what each error means, CSV downloads of each, and what is open and moving right now.
 */
export function StatisticsSection() {
  const [view, setView] = useState<StatsView>(() => initialView());
  // The charts' code is fetched while the figures load, so the charts draw as soon as they arrive.
  useEffect(() => {
    void import('../../components/charts/time-series-chart.tsx');
  }, []);
  const credentials = useStatsCredentials();
  const range = useMemo(() => rangeOf(view), [view]);
  const query = 'error' in range ? null : queryOf(view, range);
  const series = useStatsSeries(query);
  const errors = useStatsErrors(query);
  const credential = credentials.data?.find((candidate) => candidate.id === view.credential);
  const scope = credential
    ? credential.kind === 'plan'
      ? `the ${POOL_NAMES[credential.pool]} plan's own login`
      : `proxy user ${credential.label}`
    : view.pool === 'all'
      ? 'all credentials'
      : `the ${POOL_NAMES[view.pool]} pool`;
  const period =
    view.period === 'custom'
      ? `${view.customFrom} to ${view.customTo}`
      : `the last ${PERIOD_CHOICES.find((choice) => choice.value === view.period)?.label ?? view.period}`;
  const exports = query
    ? [
        { label: 'Traffic', href: statsCsvUrl('series', query) },
        { label: 'Errors', href: statsCsvUrl('errors', query) },
        { label: 'Hosts', href: statsCsvUrl('hosts', query) },
      ]
    : null;

  return (
    <div className="space-y-6">
      <StatsToolbar
        view={view}
        onChange={setView}
        credentials={credentials.data ?? []}
        exports={exports}
        rangeError={'error' in range ? range.error : null}
      />
      <p className="text-sm text-gray-600" aria-live="polite">
        Showing {scope}, {period}
        {view.resolution === 'hour' ? ', by the hour' : ', by the day'} (UTC).
      </p>
      {series.isError ? (
        <ErrorState
          error={series.error}
          fallback="Failed to load your statistics."
          onRetry={() => void series.refetch()}
          isRetrying={series.isFetching}
        />
      ) : series.data ? (
        <>
          <StatsSummary totals={series.data.totals} />
          <StatsCharts series={series.data} errors={errors.data} label={`${scope}, ${period}`} />
        </>
      ) : query ? (
        <div role="status" aria-label="Loading statistics" className="space-y-4">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : null}
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <LiveCard />
        <ErrorsCard errors={errors.data} />
      </div>
      <HostsCard query={query} />
    </div>
  );
}
