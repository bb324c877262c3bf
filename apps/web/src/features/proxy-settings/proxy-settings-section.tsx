import type { Plan } from '@bytegate/contracts/billing';
import { POOL_NAMES, POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import { proxySettingsMessages as messages } from '@bytegate/contracts/proxy-settings';
import { SlidersHorizontalIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { usePlans, usePoolPlan } from '../../api/use-plans.ts';
import { useProxySettings } from '../../api/use-proxy-settings.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { SegmentedControl } from '../../components/ui/segmented-control.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { SettingsForm } from './settings-form.tsx';
import { useScreenToasts } from './use-screen-toasts.ts';

function NoPlan({ onViewPlans }: { onViewPlans: () => void }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-16 text-center">
        <SlidersHorizontalIcon className="size-10 text-brand-500" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-gray-900">No Proxy Plan Active</h2>
        <p className="max-w-md text-sm text-gray-600">
          Buy GB of a pool to choose the countries, states, ASNs and rotation of its IPs here.
        </p>
        <Button type="button" onClick={onViewPlans}>
          View Plans
        </Button>
      </CardContent>
    </Card>
  );
}

function Loading({ label }: { label: string }) {
  return (
    <div className="space-y-6" role="status" aria-busy="true" aria-label={label}>
      <Skeleton className="h-28" />
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-64" />
        <Skeleton className="h-64" />
      </div>
    </div>
  );
}

function CurrentPlan({ plan }: { plan: Plan }) {
  const facts: Array<[string, string]> = [
    ['Plan', plan.label],
    ['Traffic left', plan.balanceFormat],
    ['Pool type', POOL_NAMES[plan.poolType]],
    ['Threads', plan.threads.toLocaleString('en-US')],
  ];
  return (
    <Card>
      <CardHeader className="flex items-center justify-between gap-3 space-y-0">
        <CardTitle>Current Plan</CardTitle>
        <Badge tone="success">Active</Badge>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          {facts.map(([term, value]) => (
            <div key={term} className="min-w-0">
              <dt className="text-xs font-medium tracking-wide text-gray-500 uppercase">{term}</dt>
              <dd className="mt-1 truncate text-sm font-semibold text-gray-900">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/**
 * Proxy Settings: the saved targeting of one pool's plan (the default of every connection through it),
 * edited in the Basic, Location, Exclusion and Advanced cards.
 */
export function ProxySettingsSection({
  initialPool,
  onNavigate,
}: {
  /** The pool to show first (the one just bought), when the user has it. */
  initialPool?: string | undefined;
  onNavigate: (id: 'plans') => void;
}) {
  const plans = usePlans();
  const active = new Map(
    (plans.data ?? []).filter((plan) => plan.active).map((plan) => [plan.poolType, plan]),
  );
  const [chosen, setChosen] = useState<PoolType | null>(() => {
    const pool = POOL_TYPES.find((type) => type === initialPool);
    return pool ?? null;
  });
  // Residential is the default pool (SPEC section 3), when the user has it.
  const poolType: PoolType =
    (chosen && active.has(chosen) ? chosen : null) ??
    (active.has('residential')
      ? 'residential'
      : (POOL_TYPES.find((pool) => active.has(pool)) ?? 'residential'));
  const listed = active.get(poolType);
  // SPEC section 4: whether there is a plan (the list), then the pool's plan, then its settings.
  const current = usePoolPlan(poolType, listed);
  const plan = current.data ?? undefined;
  const settings = useProxySettings(poolType, plan !== undefined);

  const showError = useScreenToasts(`proxy-settings:${poolType}`);
  useEffect(() => {
    if (plans.isError) {
      showError('check', messages.checkPlan);
    }
  }, [plans.isError, showError]);
  useEffect(() => {
    if (current.isError) {
      showError('plan', messages.loadPlan);
    }
  }, [current.isError, showError]);
  useEffect(() => {
    if (settings.isError) {
      showError('settings', messages.loadSettings);
    }
  }, [settings.isError, showError]);

  if (plans.isPending) {
    return <Loading label="Loading proxy settings" />;
  }
  if (plans.isError) {
    return (
      <Alert tone="error" className="flex items-center justify-between gap-3">
        <span>{messages.checkPlan}</span>
        <Button type="button" variant="secondary" size="sm" onClick={() => void plans.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  if (active.size === 0 || !listed || current.data === null) {
    return <NoPlan onViewPlans={() => onNavigate('plans')} />;
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-gray-600">
          Saved settings apply to every connection of the plan; parameters in the proxy login override them.
        </p>
        <SegmentedControl
          label="Pool type"
          value={poolType}
          onValueChange={setChosen}
          options={POOL_TYPES.map((pool) => ({
            value: pool,
            label: POOL_NAMES[pool],
            disabled: !active.has(pool),
            ...(active.has(pool) ? {} : { title: `No ${POOL_NAMES[pool]} plan yet` }),
          }))}
        />
      </div>
      {current.isError ? (
        <Alert tone="error" className="flex items-center justify-between gap-3">
          <span>{messages.loadPlan}</span>
          <Button type="button" variant="secondary" size="sm" onClick={() => void current.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : !plan ? (
        <Loading label="Loading the plan" />
      ) : (
        <>
          <CurrentPlan plan={plan} />
          <PoolSettings poolType={poolType} settings={settings} />
        </>
      )}
    </div>
  );
}

/** The pool's saved settings: loading, their failure (with Retry), or the form. */
function PoolSettings({
  poolType,
  settings,
}: {
  poolType: PoolType;
  settings: ReturnType<typeof useProxySettings>;
}) {
  return settings.isPending ? (
    <Loading label="Loading settings" />
  ) : settings.isError ? (
    <Alert tone="error" className="flex items-center justify-between gap-3">
      <span>{messages.loadSettings}</span>
      <Button type="button" variant="secondary" size="sm" onClick={() => void settings.refetch()}>
        Retry
      </Button>
    </Alert>
  ) : (
    // Keyed by pool: another pool starts from its own settings (or the defaults), lists cleared.
    <SettingsForm
      key={poolType}
      poolType={poolType}
      saved={settings.data}
      isReloading={settings.isFetching}
      onReload={() => settings.refetch({ throwOnError: true })}
    />
  );
}
