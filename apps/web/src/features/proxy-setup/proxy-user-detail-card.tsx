import type { Plan } from '@bytegate/contracts/billing';
import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { EyeIcon, EyeOffIcon, Trash2Icon } from 'lucide-react';
import { type ReactNode, type Ref, useId, useState } from 'react';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { formatDate } from '../admin/format.ts';
import { EditProxyUserDialog } from './edit-proxy-user-dialog.tsx';
import { FieldRow } from './field-row.tsx';
import {
  describeCap,
  describeReset,
  describeTargeting,
  describeThreads,
  displayName,
  formatTraffic,
} from './proxy-user-format.ts';
import { ProxyUserUsage } from './proxy-user-usage.tsx';
import { RegenerateProxyUserPasswordDialog } from './regenerate-proxy-user-password-dialog.tsx';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1.5 px-5 py-4 sm:px-6">
      <dt className="text-xs font-medium tracking-wide text-gray-500 uppercase">{term}</dt>
      <dd className="space-y-1 text-sm text-gray-900">{children}</dd>
    </div>
  );
}

/**
 * One proxy user in full: its credentials (the password masked until shown, with a new one on request),
 * its usage and limits, whose targeting it uses and its allowlist; edited and deleted from here.
 */
export function ProxyUserDetailCard({
  plan,
  user,
  titleRef,
  onDelete,
}: {
  plan: Plan;
  user: ProxyUser;
  /** The title, where focus goes when the user is chosen from the list. */
  titleRef: Ref<HTMLHeadingElement>;
  /** Opens the delete confirmation; `button` is where focus returns if it is cancelled. */
  onDelete: (button: HTMLButtonElement) => void;
}) {
  const titleId = useId();
  const [isRevealed, setIsRevealed] = useState(false);
  const name = displayName(user);
  const reset = describeReset(user);
  const targeting = describeTargeting(user);

  return (
    <Card aria-label={`Proxy user ${name}`}>
      <CardHeader className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="text-xs font-medium tracking-wide text-brand-700 uppercase">Proxy user</p>
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <CardTitle
              id={titleId}
              ref={titleRef}
              tabIndex={-1}
              className="min-w-0 truncate text-lg focus:outline-none"
            >
              {name}
            </CardTitle>
            <Badge tone={user.enabled ? 'success' : 'neutral'}>{user.enabled ? 'Enabled' : 'Disabled'}</Badge>
          </div>
          <CardDescription>
            Created <time dateTime={user.created_at}>{formatDate(user.created_at)}</time>
          </CardDescription>
        </div>
        <div className="flex shrink-0 gap-2">
          <EditProxyUserDialog key={user.id} plan={plan} user={user} />
          <Button
            type="button"
            variant="secondary"
            size="sm"
            aria-label={`Delete ${name}`}
            className="text-red-700 hover:bg-red-50"
            onClick={(event) => onDelete(event.currentTarget)}
          >
            <Trash2Icon aria-hidden="true" />
            Delete
          </Button>
        </div>
      </CardHeader>
      <CardContent className="py-1">
        <dl className="divide-y divide-gray-100">
          <FieldRow label="Login" value={user.login} />
          <FieldRow
            label="Password"
            value={user.password}
            display={
              isRevealed ? (
                <span data-testid="proxy-user-password">{user.password}</span>
              ) : (
                <>
                  <span aria-hidden="true">{'•'.repeat(Math.min(user.password.length, 16))}</span>
                  <span className="sr-only">Password hidden</span>
                </>
              )
            }
            extra={
              <>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-pressed={isRevealed}
                  aria-label={isRevealed ? 'Hide password' : 'Show password'}
                  onClick={() => setIsRevealed((value) => !value)}
                >
                  {isRevealed ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
                </Button>
                <RegenerateProxyUserPasswordDialog planId={plan.subUserId} user={user} />
              </>
            }
          />
        </dl>
      </CardContent>
      <dl className="grid border-t border-gray-100 sm:grid-cols-2 lg:grid-cols-4 lg:divide-x lg:divide-gray-100">
        <Fact term="Usage">
          <ProxyUserUsage user={user} />
          <p className="text-xs text-gray-500">
            {reset ?? `${formatTraffic(user.usage.lifetime_used_bytes)} used in all`}
            {reset ? ` · ${formatTraffic(user.usage.lifetime_used_bytes)} used in all` : null}
          </p>
        </Fact>
        <Fact term="Limits">
          <p>
            <span className="text-gray-500">Cap: </span>
            {describeCap(user)}
          </p>
          <p>
            <span className="text-gray-500">Threads: </span>
            {describeThreads(user, plan.threads)}
          </p>
        </Fact>
        <Fact term="Targeting">
          <p>{targeting.title}</p>
          {targeting.detail ? (
            <p className="text-xs break-words text-gray-500">{targeting.detail}</p>
          ) : (
            <p className="text-xs text-gray-500">Countries, ASNs and rotation as the plan has them.</p>
          )}
        </Fact>
        <Fact term="IP allowlist">
          {user.allowlist.length === 0 ? (
            <p className="text-gray-500">None: a password is needed</p>
          ) : (
            <ul aria-label={`Addresses allowlisted for ${name}`} className="space-y-0.5">
              {user.allowlist.map((address) => (
                <li key={address} className="truncate font-mono text-xs">
                  {address}
                </li>
              ))}
            </ul>
          )}
        </Fact>
      </dl>
    </Card>
  );
}
