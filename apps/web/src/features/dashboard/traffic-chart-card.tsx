import type { DailyTraffic } from '@bytegate/contracts/dashboard';
import type { UseQueryResult } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useDashboardTraffic } from '../../api/use-dashboard-traffic.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';

// The chart code loads after the rest of the overview has shown.
const TimeSeriesChart = lazy(() => import('../../components/charts/time-series-chart.tsx'));

const UNITS = [
  { name: 'GB', bytes: 1024 ** 3 },
  { name: 'MB', bytes: 1024 ** 2 },
  { name: 'KB', bytes: 1024 },
] as const;

/** The largest unit in which `bytes` reads as at least 1 (KB below that). */
export function unitFor(bytes: number): (typeof UNITS)[number] {
  return UNITS.find((unit) => bytes >= unit.bytes) ?? UNITS[2];
}

/** The axis unit: the busiest day's, so the bars read as whole-ish numbers. */
export function chartUnit(days: readonly DailyTraffic[]) {
  return unitFor(Math.max(0, ...days.map((day) => day.bytes)));
}

/** Daily traffic over the last 30 days, all plans together. */
export function TrafficChartCard() {
  return (
    <TrafficChart
      traffic={useDashboardTraffic()}
      emptyText="No traffic yet. Your daily usage appears here once requests go through the gateway."
    />
  );
}

/**
 * The 30-day traffic card over any source of days: the customer's own overview, and a customer's page
 * in the staff console.
 */
export function TrafficChart({
  traffic,
  emptyText,
}: {
  traffic: UseQueryResult<readonly DailyTraffic[]>;
  emptyText: string;
}) {
  const days = traffic.data ?? [];
  const unit = chartUnit(days);
  const totalBytes = days.reduce((sum, day) => sum + day.bytes, 0);
  const totalUnit = unitFor(totalBytes);
  const times = days.map((day) => Date.parse(`${day.day}T00:00:00Z`));
  const series = [
    {
      label: 'Traffic',
      color: '#4f46e5',
      values: days.map((day) => Math.round((day.bytes / unit.bytes) * 100) / 100),
    },
  ];
  const formatValue = (value: number) => `${Number(value.toFixed(2))} ${unit.name}`;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Traffic, last 30 days</CardTitle>
        <CardDescription>
          {traffic.isSuccess
            ? `${(totalBytes / totalUnit.bytes).toFixed(2)} ${totalUnit.name} carried; ${unit.name} per UTC day`
            : 'Bytes carried per UTC day, all pools together'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {traffic.isPending ? (
          <Skeleton className="h-56 w-full" />
        ) : traffic.isError ? (
          <Alert tone="error" className="flex items-center justify-between gap-3">
            <span>Failed to load the traffic chart.</span>
            <Button type="button" variant="secondary" size="sm" onClick={() => void traffic.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : totalBytes === 0 ? (
          <p className="flex h-56 items-center justify-center rounded-lg border border-dashed border-gray-200 px-4 text-center text-sm text-gray-500">
            {emptyText}
          </p>
        ) : (
          <div data-testid="traffic-chart">
            <Suspense fallback={<Skeleton className="h-56 w-full" />}>
              <TimeSeriesChart
                times={times}
                series={series}
                resolution="day"
                formatValue={formatValue}
                label={`Traffic carried per UTC day, the last 30 days, in ${unit.name}`}
              />
            </Suspense>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
