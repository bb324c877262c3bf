import type { FleetHealthResponse, HealthPlan, PlanTraffic } from '@bytegate/contracts/admin-health';
import { POOL_NAMES } from '@bytegate/contracts/pools';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatInteger } from '../format.ts';
import { BarList } from './bar-list.tsx';
import { errorCodeLabel } from './error-codes.ts';

// The chart code loads after the rest of the view has shown.
const TimeSeriesChart = lazy(() => import('../../../components/charts/time-series-chart.tsx'));
const formatCount = (value: number) => formatInteger(Math.round(value));

const BYTE_UNITS: Array<[string, number]> = [
  ['GB', 1024 ** 3],
  ['MB', 1024 ** 2],
  ['KB', 1024],
];

/** Bytes in the largest unit that reads as at least 1 (KB below that): '3.20 GB'. */
export function formatBytes(bytes: number): string {
  const [name, size] = BYTE_UNITS.find(([, unit]) => bytes >= unit) ?? ['KB', 1024];
  return `${(bytes / size).toFixed(2)} ${name}`;
}

/** A plan as the view names it: its login (to the owner's page) and, below, the pool and owner. */
function PlanName({ plan }: { plan: HealthPlan }) {
  return (
    <Link
      to={`/admin/customers/${plan.userId}`}
      className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      {plan.login}
    </Link>
  );
}

const planHint = (plan: HealthPlan) => `${POOL_NAMES[plan.pool]} · ${plan.email}`;

export function Section({
  title,
  description,
  children,
  className,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const id = `health-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <Card aria-labelledby={id} className={className}>
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function Nothing({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-gray-200 px-4 py-6 text-center text-sm text-gray-600">
      {children}
    </p>
  );
}

/** One figure with its label, for the row of totals at the top. */
export function Stat({
  label,
  value,
  hint,
  tone,
}: {
  label: string;
  value: string;
  hint?: string;
  tone?: string;
}) {
  return (
    <div className="rounded-xl border border-gray-200 bg-white px-4 py-3 shadow-xs">
      <p className="text-sm text-gray-600">{label}</p>
      <p className={cn('text-2xl font-semibold text-gray-900 tabular-nums', tone)}>{value}</p>
      {hint ? <p className="text-xs text-gray-600">{hint}</p> : null}
    </div>
  );
}

export function HourlyChart({ hourly }: { hourly: FleetHealthResponse['hourly'] }) {
  const total = hourly.reduce((sum, hour) => sum + hour.requests, 0);
  const times = hourly.map((hour) => Date.parse(hour.hour));
  // Errors are a part of requests: their bars are drawn over the requests' (a red top on each).
  const series = [
    { label: 'Requests', color: '#4f46e5', values: hourly.map((hour) => hour.requests) },
    { label: 'Errors', color: '#dc2626', values: hourly.map((hour) => hour.errors) },
  ];
  return (
    <Section title="Requests and errors per hour" description="All plans, the last 24 hours (UTC)">
      {total === 0 ? (
        <Nothing>No requests through the gateway in the last 24 hours.</Nothing>
      ) : (
        <Suspense fallback={<Skeleton className="h-56 w-full" />}>
          <TimeSeriesChart
            times={times}
            series={series}
            resolution="hour"
            formatValue={formatCount}
            isWhole
            label="Requests and errors per hour, all plans, the last 24 hours (UTC)"
          />
        </Suspense>
      )}
    </Section>
  );
}

export function TopByTraffic({ plans }: { plans: PlanTraffic[] }) {
  return (
    <Section title="Top plans by traffic" description="Billed bytes, last 24 hours">
      {plans.length === 0 ? (
        <Nothing>No traffic yet.</Nothing>
      ) : (
        <BarList
          label="Top plans by traffic"
          items={plans.map((plan) => ({
            key: plan.planId,
            label: <PlanName plan={plan} />,
            hint: planHint(plan),
            value: plan.billedBytes,
            display: formatBytes(plan.billedBytes),
          }))}
        />
      )}
    </Section>
  );
}

export function TopByErrors({ plans }: { plans: PlanTraffic[] }) {
  return (
    <Section title="Top plans by errors" description="Refused or failed requests, last 24 hours">
      {plans.length === 0 ? (
        <Nothing>No errors in the last 24 hours.</Nothing>
      ) : (
        <BarList
          label="Top plans by errors"
          barClassName="bg-red-100"
          items={plans.map((plan) => ({
            key: plan.planId,
            label: <PlanName plan={plan} />,
            hint: `${planHint(plan)} · ${plan.requests > 0 ? Math.round((plan.errors / plan.requests) * 100) : 100}% of ${formatInteger(plan.requests)} requests`,
            value: plan.errors,
            display: formatInteger(plan.errors),
          }))}
        />
      )}
    </Section>
  );
}

export function RefusalsByCode({ codes }: { codes: FleetHealthResponse['errorsByCode'] }) {
  return (
    <Section title="Refusals by code" description="Every plan together, last 24 hours">
      {codes.length === 0 ? (
        <Nothing>Nothing refused in the last 24 hours.</Nothing>
      ) : (
        <BarList
          label="Refusals by code"
          barClassName="bg-amber-100"
          items={codes.map((entry) => ({
            key: entry.code,
            label: errorCodeLabel(entry.code),
            hint: <code className="font-mono">{entry.code}</code>,
            value: entry.count,
            display: formatInteger(entry.count),
          }))}
        />
      )}
    </Section>
  );
}

export function BlockedHits({ blocked }: { blocked: FleetHealthResponse['blocked'] }) {
  const figures: Array<[string, number]> = [
    ['Blocked hosts', blocked.hostHits],
    ['Blocked ports', blocked.portHits],
    ['Private targets', blocked.privateHits],
  ];
  return (
    <Section title="Blocked hosts and ports" description="Who tried what the policy blocks, last 24 hours">
      <dl className="mb-4 grid grid-cols-3 gap-3">
        {figures.map(([label, count]) => (
          <div key={label} className="rounded-lg bg-gray-50 px-3 py-2">
            <dt className="text-xs text-gray-600">{label}</dt>
            <dd className="text-lg font-semibold text-gray-900 tabular-nums">{formatInteger(count)}</dd>
          </div>
        ))}
      </dl>
      {blocked.topPlans.length === 0 ? (
        <Nothing>No plan hit a block.</Nothing>
      ) : (
        <BarList
          label="Plans that hit blocks"
          barClassName="bg-red-100"
          items={blocked.topPlans.map((entry) => ({
            key: `${entry.planId}-${entry.code}`,
            label: <PlanName plan={entry} />,
            hint: `${errorCodeLabel(entry.code)} · ${entry.email}`,
            value: entry.count,
            display: formatInteger(entry.count),
          }))}
        />
      )}
    </Section>
  );
}

export function Connections({ connections }: { connections: FleetHealthResponse['connections'] }) {
  return (
    <Section
      title="Connections now"
      description="Held by the gateway in this server process only; other gateway processes are not counted."
    >
      {connections === null ? (
        <Nothing>This process runs no gateway (ROLES), so it has no connections to show.</Nothing>
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-gray-700">
            <span className="text-2xl font-semibold text-gray-900 tabular-nums">
              {formatInteger(connections.open)}
            </span>{' '}
            open, of which {formatInteger(connections.authenticating)} still authenticating.
          </p>
          {connections.topPlans.length === 0 ? (
            <Nothing>No plan holds a connection right now.</Nothing>
          ) : (
            <BarList
              label="Plans by open connections"
              items={connections.topPlans.map((plan) => ({
                key: plan.planId,
                label: <PlanName plan={plan} />,
                hint: planHint(plan),
                value: plan.connections,
                display: formatInteger(plan.connections),
              }))}
            />
          )}
        </div>
      )}
    </Section>
  );
}
