import type { Plan } from '@bytegate/contracts/billing';
import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { UsersIcon } from 'lucide-react';
import { type Ref, useId } from 'react';
import type { useProxyUsers } from '../../api/use-proxy-users.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../admin/states.tsx';
import { CreateProxyUserDialog } from './create-proxy-user-dialog.tsx';
import { ProxyUserListHeader, ProxyUserRow } from './proxy-user-row.tsx';

/**
 * Proxy users: the plan's extra logins, oldest first, each with its usage bar, thread limit and an
 * enabled switch; created here, shown in detail below when chosen.
 */
export function ProxyUsersCard({
  plan,
  query,
  users,
  selectedId,
  titleRef,
  onSelect,
  onCreated,
}: {
  plan: Plan;
  query: ReturnType<typeof useProxyUsers>;
  /** Every loaded page's users, in order. */
  users: ProxyUser[];
  selectedId: string | null;
  /** The card's title, where focus goes when the user it was on is gone. */
  titleRef: Ref<HTMLHeadingElement>;
  onSelect: (user: ProxyUser) => void;
  onCreated: (user: ProxyUser) => void;
}) {
  const titleId = useId();
  const isAllLoaded = query.isSuccess && !query.hasNextPage;

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <div className="flex items-center gap-2">
            <CardTitle id={titleId} ref={titleRef} tabIndex={-1} className="focus:outline-none">
              Proxy users
            </CardTitle>
            {isAllLoaded && users.length > 0 ? (
              <Badge>
                {users.length.toLocaleString('en-US')}
                <span className="sr-only"> proxy users in all</span>
              </Badge>
            ) : null}
          </div>
          <CardDescription className="max-w-2xl">
            Logins of their own under this plan, for your customers, teams or tools: each with its own traffic
            cap, thread limit and IP allowlist. Their traffic counts in the plan’s.
          </CardDescription>
        </div>
        <CreateProxyUserDialog plan={plan} onCreated={onCreated} />
      </CardHeader>
      {query.isPending ? (
        <CardContent>
          <LoadingRows what="proxy users" rows={2} />
        </CardContent>
      ) : query.isError ? (
        <CardContent>
          <ErrorState
            error={query.error}
            fallback="Failed to load the proxy users."
            onRetry={() => void query.refetch()}
            isRetrying={query.isFetching}
          />
        </CardContent>
      ) : users.length === 0 ? (
        <EmptyState icon={UsersIcon} title="No proxy users yet" className="py-12">
          Create one for each customer, team or tool you hand proxies to: its own login and password, a
          traffic cap per day, month or lifetime, and a thread limit. Disable or delete it at any time.
        </EmptyState>
      ) : (
        <>
          <ProxyUserListHeader />
          <ul aria-label="Proxy users" className="divide-y divide-gray-100">
            {users.map((user) => (
              <ProxyUserRow
                key={user.id}
                user={user}
                planThreads={plan.threads}
                isSelected={user.id === selectedId}
                planId={plan.subUserId}
                onSelect={() => onSelect(user)}
              />
            ))}
          </ul>
          {query.hasNextPage ? (
            <div className="flex justify-center border-t border-gray-100 px-5 py-3">
              <Button
                type="button"
                variant="secondary"
                size="sm"
                isLoading={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                Show more proxy users
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}
