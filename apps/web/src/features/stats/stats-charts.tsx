import type { StatsErrorsResponse, StatsSeriesResponse } from '@bytegate/contracts/stats';
import { BarChart3Icon } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatBytes, formatCount, formatRate100 } from './stats-view.ts';

const TimeSeriesChart = lazy(() => import('../../components/charts/time-series-chart.tsx'));

/** The most error codes a chart names; the rest are summed as "Other". */
const MAX_CODES = 5;
const CODE_COLORS = ['#dc2626', '#d97706', '#7c3aed', '#0891b2', '#be185d', '#6b7280'];
const formatPercent = (value: number) => `${Math.round(value)}%`;

/** The four figures of the view's totals. */
export function StatsSummary({ totals }: { totals: StatsSeriesResponse['totals'] }) {
  const judged = totals.requests - totals.refusedByPolicy;
  return (
    <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <Figure label="Traffic billed" value={formatBytes(totals.billedBytes)}>
        {formatBytes(totals.bytes)} carried
        {totals.billedBytes > totals.bytes ? ' (target filters bill 2x)' : ''}
      </Figure>
      <Figure label="Requests" value={formatCount(totals.requests)}>
        {formatCount(totals.succeeded)} met their target
      </Figure>
      <Figure label="Success rate" value={formatRate100(totals.successRate)}>
        of {formatCount(judged)} requests our policy let through
      </Figure>
      <Figure
        label="Failed · refused by policy"
        value={`${formatCount(totals.failed)} · ${formatCount(totals.refusedByPolicy)}`}
      >
        Refusals by policy (blocked port or host, private target, bad targeting) do not count against the rate
      </Figure>
    </dl>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-gray-200 bg-white px-4 py-3 shadow-xs">
      <dt className="text-sm text-gray-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tracking-tight text-gray-900 tabular-nums">{value}</dd>
      <dd className="mt-1 text-xs text-gray-600">{children}</dd>
    </div>
  );
}

function ChartCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <Suspense fallback={<Skeleton className="h-56 w-full" />}>{children}</Suspense>
      </CardContent>
    </Card>
  );
}

/** Traffic, requests, the success rate and errors by code over the view's range. */
export function StatsCharts({
  series,
  errors,
  label,
}: {
  series: StatsSeriesResponse;
  errors: StatsErrorsResponse | undefined;
  /** What the view covers, for the charts' captions: 'all credentials, the last 7 days'. */
  label: string;
}) {
  if (series.totals.requests === 0 && series.totals.bytes === 0) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-2 py-12 text-center">
          <BarChart3Icon className="size-6 text-gray-400" aria-hidden="true" />
          <p className="font-medium text-gray-900">No traffic in this period</p>
          <p className="max-w-md text-sm text-gray-600">
            The charts fill in as requests go through the gateway. Choose a longer period, or another pool or
            credential.
          </p>
        </CardContent>
      </Card>
    );
  }
  const times = series.points.map((point) => Date.parse(point.at));
  const per = series.resolution === 'hour' ? 'hour' : 'UTC day';
  const rates = series.points.map((point) => {
    const judged = point.requests - point.refusedByPolicy;
    // Nothing to rate in a point without requests: a gap in the line, not a fall to 0%.
    return judged > 0 ? (point.succeeded / judged) * 100 : null;
  });
  const topCodes = (errors?.errors ?? []).slice(0, MAX_CODES).map((row) => row.code);
  const errorSeries = errors
    ? [
        ...topCodes.map((code, index) => ({
          label: code,
          color: CODE_COLORS[index] ?? '#6b7280',
          values: errors.points.map((point) => point.counts[code] ?? 0),
        })),
        ...(errors.errors.length > MAX_CODES
          ? [
              {
                label: 'Other',
                color: CODE_COLORS[MAX_CODES] ?? '#6b7280',
                values: errors.points.map((point) =>
                  Object.entries(point.counts)
                    .filter(([code]) => !topCodes.includes(code))
                    .reduce((sum, [, count]) => sum + count, 0),
                ),
              },
            ]
          : []),
      ]
    : [];
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <ChartCard
        title="Traffic"
        description={`Billed and carried per ${per} (billed counts target filters twice)`}
      >
        <TimeSeriesChart
          times={times}
          resolution={series.resolution}
          formatValue={formatBytes}
          label={`Traffic billed and carried per ${per}, ${label}`}
          series={[
            { label: 'Billed', color: '#a5b4fc', values: series.points.map((point) => point.billedBytes) },
            { label: 'Carried', color: '#4f46e5', values: series.points.map((point) => point.bytes) },
          ]}
        />
      </ChartCard>
      <ChartCard title="Requests" description={`Succeeded, failed and refused by policy per ${per}`}>
        <TimeSeriesChart
          times={times}
          resolution={series.resolution}
          formatValue={formatCount}
          isStacked
          isWhole
          label={`Requests per ${per}, ${label}`}
          series={[
            { label: 'Succeeded', color: '#059669', values: series.points.map((point) => point.succeeded) },
            { label: 'Failed', color: '#dc2626', values: series.points.map((point) => point.failed) },
            {
              label: 'Refused by policy',
              color: '#9ca3af',
              values: series.points.map((point) => point.refusedByPolicy),
            },
          ]}
        />
      </ChartCard>
      <ChartCard
        title="Success rate"
        description={`Requests that met their target, of those our policy let through, per ${per}`}
      >
        <TimeSeriesChart
          times={times}
          resolution={series.resolution}
          formatValue={formatPercent}
          range={[0, 100]}
          label={`Success rate per ${per}, ${label}`}
          series={[{ label: 'Success rate', color: '#059669', values: rates, kind: 'line' }]}
        />
      </ChartCard>
      <ChartCard
        title="Errors by code"
        description={`Refused and failed requests per ${per}, the most frequent codes`}
      >
        {errorSeries.length === 0 ? (
          <p className="flex h-56 items-center justify-center rounded-lg border border-dashed border-gray-200 px-4 text-center text-sm text-gray-600">
            No refused or failed requests in this period.
          </p>
        ) : (
          <TimeSeriesChart
            times={times}
            resolution={series.resolution}
            formatValue={formatCount}
            isStacked
            isWhole
            label={`Errors by code per ${per}, ${label}`}
            series={errorSeries}
          />
        )}
      </ChartCard>
    </div>
  );
}
