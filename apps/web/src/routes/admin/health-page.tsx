import { Link } from 'react-router';
import { useFleetHealth } from '../../api/use-admin-health.ts';
import { formatInteger } from '../../features/admin/format.ts';
import {
  BlockedHits,
  Connections,
  HourlyChart,
  RefusalsByCode,
  Stat,
  TopByErrors,
  TopByTraffic,
} from '../../features/admin/health/health-sections.tsx';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { ErrorState, LoadingRows } from '../../features/admin/states.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/**
 * Abuse and health: the last 24 hours of the gateway (who sends the most, who fails the most, what was
 * refused and who hit the blocks) and the connections this process holds now. Read again every 10 s.
 */
export function HealthPage() {
  useDocumentTitle('Health · Console');
  const health = useFleetHealth();
  const data = health.data;
  const requests = data?.hourly.reduce((sum, hour) => sum + hour.requests, 0) ?? 0;
  const errors = data?.hourly.reduce((sum, hour) => sum + hour.errors, 0) ?? 0;
  const blocked = data ? data.blocked.hostHits + data.blocked.portHits + data.blocked.privateHits : 0;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Abuse and health"
        description="The gateway over the last 24 hours, from the hourly usage every plan is billed from."
      />
      {health.isPending ? (
        <LoadingRows what="the health view" rows={6} />
      ) : health.isError ? (
        <ErrorState
          error={health.error}
          fallback="The health view could not be loaded. Please try again."
          onRetry={() => void health.refetch()}
          isRetrying={health.isFetching}
        />
      ) : data ? (
        <>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
            <Stat
              label="Open connections"
              value={data.connections ? formatInteger(data.connections.open) : '—'}
              hint="this process, now"
            />
            <Stat label="Requests" value={formatInteger(requests)} hint="last 24 hours" />
            <Stat
              label="Errors"
              value={formatInteger(errors)}
              hint={requests > 0 ? `${((errors / requests) * 100).toFixed(1)}% of requests` : 'last 24 hours'}
              tone={errors > 0 ? 'text-red-700' : undefined}
            />
            <Stat label="Blocked hits" value={formatInteger(blocked)} hint="hosts, ports, private" />
            <Link
              to={data.exits.outOfRotation > 0 ? '/admin/exits?status=out_of_rotation' : '/admin/exits'}
              className="col-span-2 rounded-xl focus-visible:outline-2 focus-visible:outline-brand-500 lg:col-span-1"
            >
              <Stat
                label="Exits out of rotation"
                value={formatInteger(data.exits.outOfRotation)}
                hint={`of ${formatInteger(data.exits.total)} exits`}
                tone={data.exits.outOfRotation > 0 ? 'text-amber-700' : undefined}
              />
            </Link>
          </div>
          <HourlyChart hourly={data.hourly} />
          <div className="grid gap-6 lg:grid-cols-2">
            <TopByTraffic plans={data.topByTraffic} />
            <TopByErrors plans={data.topByErrors} />
            <RefusalsByCode codes={data.errorsByCode} />
            <BlockedHits blocked={data.blocked} />
          </div>
          <Connections connections={data.connections} />
        </>
      ) : null}
    </div>
  );
}
