import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { ChevronRightIcon } from 'lucide-react';
import { useId } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useUpdateProxyUser } from '../../api/use-proxy-users.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { cn } from '../../lib/cn.ts';
import { describeThreads, displayName, summarizeUsage } from './proxy-user-format.ts';
import { ProxyUserUsage } from './proxy-user-usage.tsx';

/** The list's columns on a wide screen: user, usage, threads, enabled and details. */
export const ROW_COLUMNS = 'lg:grid-cols-[minmax(0,15rem)_minmax(0,1fr)_9rem_12rem]';

/** The column titles above the rows on a wide screen; each row names its own values to screen readers. */
export function ProxyUserListHeader() {
  return (
    <div
      aria-hidden="true"
      className={cn(
        'hidden gap-x-6 border-b border-gray-100 bg-gray-50 px-6 py-2 text-xs font-semibold tracking-wide text-gray-500 uppercase lg:grid',
        ROW_COLUMNS,
      )}
    >
      <span>User</span>
      <span>Usage</span>
      <span>Threads</span>
      <span className="sr-only">Actions</span>
    </div>
  );
}

/**
 * One proxy user in the list: its name and login, its usage bar, its thread limit, a switch that
 * enables or disables it at once, and the button that shows its details (credentials, URL, lists).
 */
export function ProxyUserRow({
  user,
  planThreads,
  planId,
  isSelected,
  onSelect,
}: {
  user: ProxyUser;
  planThreads: number;
  planId: string;
  isSelected: boolean;
  onSelect: () => void;
}) {
  const update = useUpdateProxyUser(planId);
  const name = displayName(user);
  const switchId = useId();
  const isSwitching = update.isPending;
  // While the switch's change is on its way, it shows where it is going.
  const isEnabled =
    isSwitching && update.variables?.fields.enabled !== undefined
      ? update.variables.fields.enabled
      : user.enabled;
  const isCapReached = summarizeUsage(user).tone === 'reached';

  const setEnabled = (enabled: boolean) =>
    update.mutate(
      { id: user.id, fields: { enabled } },
      {
        onSuccess: () =>
          enabled
            ? toast.success(`“${name}” enabled`)
            : toast.success(`“${name}” disabled`, {
                description: 'Its open tunnels close within 2 seconds.',
              }),
        onError: (error) =>
          toast.error(errorMessage(error, `Failed to ${enabled ? 'enable' : 'disable'} “${name}”`)),
      },
    );

  return (
    <li
      aria-current={isSelected ? 'true' : undefined}
      className={cn(
        'relative grid grid-cols-[minmax(0,1fr)_auto] gap-x-6 gap-y-3 px-5 py-4 sm:px-6 lg:items-center',
        ROW_COLUMNS,
        isSelected ? 'bg-brand-50/50' : 'hover:bg-gray-50/60',
      )}
    >
      {isSelected ? <span aria-hidden="true" className="absolute inset-y-0 left-0 w-1 bg-brand-500" /> : null}
      <div className="col-start-1 row-start-1 min-w-0">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <h3 className="min-w-0 truncate font-medium text-gray-900">{name}</h3>
          {user.enabled ? null : <Badge>Disabled</Badge>}
          {isCapReached ? <Badge tone="danger">Cap reached</Badge> : null}
        </div>
        <p className="mt-0.5 truncate font-mono text-xs text-gray-500">{user.login}</p>
      </div>
      <ProxyUserUsage user={user} className="col-span-2 lg:col-span-1 lg:col-start-2 lg:row-start-1" />
      <dl className="col-span-2 text-sm lg:col-span-1 lg:col-start-3 lg:row-start-1">
        <dt className="sr-only">Threads</dt>
        <dd className="text-gray-600">{describeThreads(user, planThreads)}</dd>
      </dl>
      <div className="col-start-2 row-start-1 flex items-center justify-end gap-3 lg:col-start-4">
        <div className="flex items-center gap-2">
          <label htmlFor={switchId} className="hidden text-sm text-gray-600 sm:inline">
            Enabled
          </label>
          <Switch
            id={switchId}
            checked={isEnabled}
            aria-label={`${name} enabled`}
            // Not disabled while its change is on its way: a disabled switch would drop the keyboard's focus.
            aria-busy={isSwitching || undefined}
            onCheckedChange={(enabled) => {
              if (!isSwitching) {
                setEnabled(enabled);
              }
            }}
          />
        </div>
        <Button
          type="button"
          variant={isSelected ? 'ghost' : 'secondary'}
          size="sm"
          aria-label={`Details of ${name}`}
          className={cn(isSelected && 'text-brand-700')}
          onClick={onSelect}
        >
          <span className="hidden sm:inline">Details</span>
          <ChevronRightIcon aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}
