import type { Plan } from '@bytegate/contracts/billing';
import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useProxyUsers } from '../../api/use-proxy-users.ts';
import { DeleteProxyUserDialog } from './delete-proxy-user-dialog.tsx';
import type { GatewayEndpoints } from './proxy-endpoints.ts';
import { ProxyListCard } from './proxy-list-card.tsx';
import { ProxyUrlCard } from './proxy-url-card.tsx';
import { ProxyUserDetailCard } from './proxy-user-detail-card.tsx';
import { displayName } from './proxy-user-format.ts';
import { ProxyUsersCard } from './proxy-users-card.tsx';

/**
 * Proxy Setup's "Proxy users" tab for one plan: the list, the chosen user in detail (the first one until
 * another is chosen), and the cURL command and proxy list built with that user's credentials.
 */
export function ProxyUsersPanel({
  plan,
  base,
  hosts,
}: {
  plan: Plan;
  base: Omit<GatewayEndpoints, 'host'>;
  hosts: { dns: string; ip: string | null };
}) {
  const query = useProxyUsers(plan.subUserId);
  const users = useMemo(() => query.data?.pages.flatMap((page) => page.proxy_users) ?? [], [query.data]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = users.find((user) => user.id === selectedId) ?? users[0] ?? null;
  const [deleting, setDeleting] = useState<ProxyUser | null>(null);
  const deleteButtonRef = useRef<HTMLButtonElement | null>(null);
  const listTitleRef = useRef<HTMLHeadingElement>(null);
  const detailTitleRef = useRef<HTMLHeadingElement>(null);
  // Choosing a user in the list moves focus (and the view) to its details, once they show it.
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest > 0) {
      detailTitleRef.current?.focus();
    }
  }, [focusRequest]);

  const credentials = selected ? { ...plan, login: selected.login, password: selected.password } : null;
  const whose = selected ? (
    <>
      Built with the credentials of <span className="font-medium text-gray-700">{displayName(selected)}</span>{' '}
      (<span className="font-mono">{selected.login}</span>): its caps, threads and targeting apply.
    </>
  ) : null;

  return (
    <div className="space-y-6">
      <ProxyUsersCard
        plan={plan}
        query={query}
        users={users}
        selectedId={selected?.id ?? null}
        titleRef={listTitleRef}
        onSelect={(user) => {
          setSelectedId(user.id);
          setFocusRequest((count) => count + 1);
        }}
        onCreated={(user) => setSelectedId(user.id)}
      />
      {selected && credentials ? (
        <>
          <ProxyUserDetailCard
            key={selected.id}
            plan={plan}
            user={selected}
            titleRef={detailTitleRef}
            onDelete={(button) => {
              deleteButtonRef.current = button;
              setDeleting(selected);
            }}
          />
          <div className="grid gap-6 xl:grid-cols-2">
            <ProxyUrlCard plan={credentials} base={base} hosts={hosts} description={whose} />
            <ProxyListCard plan={credentials} base={base} hosts={hosts} description={whose} />
          </div>
        </>
      ) : null}
      <DeleteProxyUserDialog
        planId={plan.subUserId}
        user={deleting}
        onClose={() => setDeleting(null)}
        // A deleted user's details are gone with the Delete button: focus goes to the list's title.
        onFocusBack={(isDeleted) => (isDeleted ? listTitleRef.current : deleteButtonRef.current)?.focus()}
      />
    </div>
  );
}
