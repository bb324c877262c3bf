import type { Plan } from '@bytegate/contracts/billing';
import { POOL_NAMES, POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import { KeyRoundIcon, NetworkIcon, SlidersHorizontalIcon, UsersIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useConfig } from '../../api/use-config.ts';
import { usePlans } from '../../api/use-plans.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { ThreadsCard } from '../thread-requests/threads-card.tsx';
import { AllowlistCard } from './allowlist-card.tsx';
import { AutomationCard } from './automation-card.tsx';
import { ProxyAccessCard } from './proxy-access-card.tsx';
import type { GatewayEndpoints } from './proxy-endpoints.ts';
import { ProxyListCard } from './proxy-list-card.tsx';
import { ProxyUrlCard } from './proxy-url-card.tsx';
import { ProxyUsersPanel } from './proxy-users-panel.tsx';
import { UsageCard } from './usage-card.tsx';

type Navigate = (id: 'plans' | 'proxy-settings') => void;

/** A pool's two views: the plan's own access, and its proxy users. */
type PlanView = 'access' | 'proxy-users';

// The views' tabs sit under the pools' pills as a lighter, underlined row: a choice within the pool.
const VIEW_LIST_CLASSES =
  'flex h-auto w-full justify-start gap-6 rounded-none border-b border-gray-200 bg-transparent p-0';
const VIEW_TRIGGER_CLASSES =
  '-mb-px h-10 rounded-none border-b-2 border-transparent px-0.5 text-gray-600 data-[state=active]:border-brand-600 data-[state=active]:bg-transparent data-[state=active]:text-brand-700 data-[state=active]:shadow-none [&_svg]:size-4';

function EmptyState({ title, onNavigate }: { title: string; onNavigate: Navigate }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-16 text-center">
        <NetworkIcon className="size-10 text-brand-500" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
        <p className="max-w-md text-sm text-gray-600">
          Buy GB of a pool to get proxy credentials, endpoints and lists here.
        </p>
        <Button type="button" onClick={() => onNavigate('plans')}>
          View Plans
        </Button>
      </CardContent>
    </Card>
  );
}

function LoadingState() {
  return (
    <div className="space-y-6" role="status" aria-busy="true" aria-label="Loading proxy setup">
      <Skeleton className="h-10 w-80 max-w-full" />
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-72" />
        <Skeleton className="h-72" />
      </div>
    </div>
  );
}

function PoolPanel({
  plan,
  base,
  hosts,
  view,
  onViewChange,
  onNavigate,
}: {
  plan: Plan;
  base: Omit<GatewayEndpoints, 'host'>;
  hosts: { dns: string; ip: string | null };
  view: PlanView;
  onViewChange: (view: PlanView) => void;
  onNavigate: Navigate;
}) {
  return (
    <Tabs value={view} onValueChange={(value) => onViewChange(value as PlanView)}>
      <TabsList aria-label={`${POOL_NAMES[plan.poolType]} plan`} className={VIEW_LIST_CLASSES}>
        <TabsTrigger value="access" className={VIEW_TRIGGER_CLASSES}>
          <KeyRoundIcon aria-hidden="true" />
          Access
        </TabsTrigger>
        <TabsTrigger value="proxy-users" className={VIEW_TRIGGER_CLASSES}>
          <UsersIcon aria-hidden="true" />
          Proxy users
        </TabsTrigger>
      </TabsList>
      <TabsContent value="access" className="mt-6">
        <AccessPanel plan={plan} base={base} hosts={hosts} onNavigate={onNavigate} />
      </TabsContent>
      <TabsContent value="proxy-users" className="mt-6">
        <ProxyUsersPanel plan={plan} base={base} hosts={hosts} />
      </TabsContent>
    </Tabs>
  );
}

/** The plan's own credentials, usage, threads, a working cURL command, lists and the IP allowlist. */
function AccessPanel({
  plan,
  base,
  hosts,
  onNavigate,
}: {
  plan: Plan;
  base: Omit<GatewayEndpoints, 'host'>;
  hosts: { dns: string; ip: string | null };
  onNavigate: Navigate;
}) {
  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <ProxyAccessCard plan={plan} endpoints={{ ...base, host: hosts.dns }} />
        <div className="min-w-0 space-y-6">
          <UsageCard plan={plan} onAddGb={() => onNavigate('plans')} />
          <ThreadsCard plan={plan} />
          <Card>
            <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-gray-600">
                Countries, states, ASNs, the anonymous filter and the rotation interval for this pool.
              </p>
              <Button type="button" variant="secondary" onClick={() => onNavigate('proxy-settings')}>
                <SlidersHorizontalIcon aria-hidden="true" />
                Proxy Configuration
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
      <AutomationCard plan={plan} />
      <ProxyUrlCard plan={plan} base={base} hosts={hosts} />
      <div className="grid gap-6 xl:grid-cols-2">
        <ProxyListCard plan={plan} base={base} hosts={hosts} />
        <AllowlistCard planId={plan.subUserId} />
      </div>
    </div>
  );
}

/**
 * Proxy Setup: per pool, the plan's access (credentials, usage, a working cURL command, lists and the IP
 * allowlist) and its proxy users.
 */
export function ProxySetupSection({ onNavigate }: { onNavigate: Navigate }) {
  const plans = usePlans();
  const config = useConfig();
  const [selected, setSelected] = useState<PoolType | null>(null);
  // The view chosen stays as the pool changes.
  const [view, setView] = useState<PlanView>('access');

  useEffect(() => {
    if (plans.isError) {
      toast.error('Error', { description: 'Failed to load proxy plans' });
    }
  }, [plans.isError]);

  if (plans.isPending || config.isPending) {
    return <LoadingState />;
  }
  if (plans.isError || config.isError) {
    return (
      <Alert tone="error" className="flex items-center justify-between gap-3">
        <span>Failed to load proxy plans</span>
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={() => void Promise.all([plans.refetch(), config.refetch()])}
        >
          Retry
        </Button>
      </Alert>
    );
  }

  const active = new Map(plans.data.filter((plan) => plan.active).map((plan) => [plan.poolType, plan]));
  if (active.size === 0) {
    return <EmptyState title="No Active Proxy Plans" onNavigate={onNavigate} />;
  }
  const { gateway } = config.data;
  const base = { httpPort: gateway.httpPort, socksPort: gateway.socksPort, stickyPorts: gateway.stickyPorts };
  const hosts = { dns: gateway.host, ip: gateway.ip };
  const current = selected ?? POOL_TYPES.find((pool) => active.has(pool)) ?? 'residential';

  return (
    <Tabs value={current} onValueChange={(value) => setSelected(value as PoolType)}>
      <TabsList aria-label="Pool" className="max-w-full overflow-x-auto">
        {POOL_TYPES.map((pool) => (
          <TabsTrigger
            key={pool}
            value={pool}
            disabled={!active.has(pool)}
            title={active.has(pool) ? undefined : `No ${POOL_NAMES[pool]} plan yet`}
          >
            {POOL_NAMES[pool]}
          </TabsTrigger>
        ))}
      </TabsList>
      {POOL_TYPES.map((pool) => {
        const plan = active.get(pool);
        return (
          <TabsContent key={pool} value={pool} className="mt-6">
            {plan ? (
              <PoolPanel
                plan={plan}
                base={base}
                hosts={hosts}
                view={view}
                onViewChange={setView}
                onNavigate={onNavigate}
              />
            ) : (
              <EmptyState title={`No ${POOL_NAMES[pool]} Plan Active`} onNavigate={onNavigate} />
            )}
          </TabsContent>
        );
      })}
    </Tabs>
  );
}
