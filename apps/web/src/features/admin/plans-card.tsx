import type { AdminPlan } from '@bytegate/contracts/admin';
import { POOL_NAMES } from '@bytegate/contracts/pools';
import type { ProxySettingsResponse } from '@bytegate/contracts/proxy-settings';
import { KeyRoundIcon, LayersIcon } from 'lucide-react';
import { toast } from 'sonner';
import { useRegeneratePassword } from '../../api/use-admin-payments.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { cn } from '../../lib/cn.ts';
import { formatGb, formatInteger } from './format.ts';
import { ReasonDialog } from './reason-dialog.tsx';
import { EmptyState } from './states.tsx';
import { ThreadLimitDialog } from './thread-limit-dialog.tsx';

/** The customer's plans: traffic used of the total, threads (changeable), saved targeting and allowlist. */
export function PlansCard({ userId, plans }: { userId: string; plans: AdminPlan[] }) {
  return (
    <Card aria-labelledby="admin-plans-title">
      <CardHeader className="flex flex-row items-center justify-between gap-3">
        <CardTitle id="admin-plans-title">Plans</CardTitle>
        <p className="text-sm text-gray-500">{plans.length === 1 ? '1 plan' : `${plans.length} plans`}</p>
      </CardHeader>
      {plans.length === 0 ? (
        <EmptyState icon={LayersIcon} title="No plans yet">
          Plans appear here once the customer buys traffic.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-gray-100">
          {plans.map((plan) => (
            <PlanRow key={plan.id} userId={userId} plan={plan} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function PlanRow({ userId, plan }: { userId: string; plan: AdminPlan }) {
  const total = plan.trafficTotalBytes;
  const used = Math.min(plan.trafficUsedBytes, total);
  const usedPercent = total > 0 ? (used / total) * 100 : 0;
  const isNearlyUsed = usedPercent >= 90;
  const poolName = POOL_NAMES[plan.poolType];
  return (
    <li className="space-y-4 px-5 py-5 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          <h3 className="font-semibold text-gray-900">{poolName}</h3>
          <Badge tone={plan.isActive ? 'success' : 'neutral'}>{plan.isActive ? 'Active' : 'Inactive'}</Badge>
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-1.5">
          <span className="sr-only">Proxy login</span>
          <code className="truncate rounded bg-gray-100 px-2 py-1 font-mono text-xs text-gray-800">
            {plan.login}
          </code>
          <CopyButton text={plan.login} what={`${poolName} proxy login`} variant="ghost" size="icon" />
          {plan.isActive ? <NewPasswordDialog userId={userId} plan={plan} poolName={poolName} /> : null}
        </div>
      </div>

      <div>
        <div className="mb-1.5 flex justify-between gap-3 text-sm">
          <span className="text-gray-600">Traffic</span>
          <span className="font-medium text-gray-900 tabular-nums">
            {formatGb(plan.trafficUsedBytes)} <span className="font-normal text-gray-500">used of</span>{' '}
            {formatGb(total)}
          </span>
        </div>
        <div
          role="progressbar"
          aria-label={`${poolName} traffic used`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(usedPercent)}
          aria-valuetext={`${formatGb(plan.trafficUsedBytes)} used of ${formatGb(total)}`}
          className="h-2 overflow-hidden rounded-full bg-gray-100"
        >
          <div
            className={cn('h-full rounded-full', isNearlyUsed ? 'bg-amber-500' : 'bg-brand-500')}
            style={{ width: `${usedPercent}%` }}
          />
        </div>
      </div>

      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div className="grid grid-cols-[1fr_auto] items-center gap-x-3 sm:col-span-2">
          <dt className="text-gray-600">Thread limit</dt>
          <dd className="col-start-1 font-semibold text-gray-900 tabular-nums">
            {formatInteger(plan.threadLimit)}
          </dd>
          <dd className="col-start-2 row-span-2 row-start-1">
            <ThreadLimitDialog userId={userId} plan={plan} />
          </dd>
        </div>
        <div>
          <dt className="text-gray-600">Saved targeting</dt>
          <dd className="mt-0.5 text-gray-900">
            <TargetingSummary targeting={plan.savedTargeting} />
          </dd>
        </div>
        <div>
          <dt className="text-gray-600">Allowlist</dt>
          <dd className="mt-1">
            {plan.allowlist.length === 0 ? (
              <span className="text-gray-500">No addresses</span>
            ) : (
              <ul className="flex flex-wrap gap-1.5" aria-label={`${poolName} allowlist`}>
                {plan.allowlist.map((address) => (
                  <li key={address}>
                    <code className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-800">
                      {address}
                    </code>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** A new proxy password for the plan: the old one stops at once; the customer reads the new one. */
function NewPasswordDialog({
  userId,
  plan,
  poolName,
}: {
  userId: string;
  plan: AdminPlan;
  poolName: string;
}) {
  const regenerate = useRegeneratePassword(userId);
  return (
    <ReasonDialog
      trigger={
        <Button variant="secondary" size="sm" aria-label={`New password for ${plan.login}`}>
          <KeyRoundIcon aria-hidden="true" />
          New password
        </Button>
      }
      title="Replace the proxy password?"
      description={`${poolName} plan ${plan.login} gets a new password. The old one is refused at once and connections made with it close within 2 seconds. The customer finds the new one in Proxy Setup; it is not shown here.`}
      confirmLabel="Replace password"
      confirmVariant="danger"
      failureMessage="The password could not be replaced. Please try again."
      onConfirm={async (body) => {
        await regenerate.mutateAsync({ ...body, planId: plan.id });
        toast.success(`New proxy password set for ${plan.login}`);
      }}
    />
  );
}

/** Saved targeting in one line each: what narrows the exits, what is excluded, rotation and the filter. */
function TargetingSummary({ targeting }: { targeting: ProxySettingsResponse | null }) {
  if (!targeting) {
    return <span className="text-gray-500">Never saved (defaults)</span>;
  }
  const lines = [
    ['Countries', targeting.countries],
    ['States', targeting.states],
    ['Cities', targeting.cities],
    ['ZIP codes', targeting.zipcodes],
    ['ASNs', targeting.asns],
    ['Excluded countries', targeting.exclude_countries],
    ['Excluded ASNs', targeting.exclude_asn],
  ] as const;
  const listed = lines.filter(([, values]) => values.length > 0);
  return (
    <ul className="space-y-0.5">
      {listed.length === 0 ? <li>Anywhere</li> : null}
      {listed.map(([label, values]) => (
        <li key={label}>
          <span className="text-gray-600">{label}:</span> {values.join(', ')}
        </li>
      ))}
      <li className="text-gray-600">
        Rotates every {targeting.rotation_interval} min
        {targeting.anonymous_filter ? ', anonymous filter on' : ''}
      </li>
    </ul>
  );
}
