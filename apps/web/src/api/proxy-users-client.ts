import type { CreateProxyUserBody, ProxyUser, ProxyUserFields } from '@bytegate/contracts/proxy-users';
import { defineApiSection } from './api-client.ts';

// A plan's proxy users (issue 17), managed from Proxy Setup's "Proxy users" tab: the public API's
// routes, served to the signed-in session under /api. A section of its own, loaded with the dashboard.

export interface ProxyUserPage {
  proxy_users: ProxyUser[];
  /** Pass as `cursor` for the next page; null: this is the last one. */
  next_cursor: string | null;
}

export interface MoveTrafficBody {
  direction: 'to_proxy_user' | 'to_plan';
  gb: number;
}

const planPath = (planId: string) => `/plans/${encodeURIComponent(planId)}/proxy-users`;
const userPath = (proxyUserId: string) => `/proxy-users/${encodeURIComponent(proxyUserId)}`;

export const proxyUsersApi = defineApiSection((request) => ({
  /** A page of the plan's proxy users, oldest first. */
  list: (planId: string, options: { cursor?: string | null; limit?: number } = {}) => {
    const params = new URLSearchParams({ limit: String(options.limit ?? 50) });
    if (options.cursor) {
      params.set('cursor', options.cursor);
    }
    return request<ProxyUserPage>('GET', `${planPath(planId)}?${params.toString()}`);
  },
  get: (proxyUserId: string) => request<{ proxy_user: ProxyUser }>('GET', userPath(proxyUserId)),
  create: (planId: string, body: CreateProxyUserBody) =>
    request<{ proxy_user: ProxyUser }>('POST', planPath(planId), { body }),
  /** Absent fields stay as they are; null clears a cap, the thread limit or the targeting. */
  update: (proxyUserId: string, body: ProxyUserFields) =>
    request<{ proxy_user: ProxyUser }>('PATCH', userPath(proxyUserId), { body }),
  /** Its login stops working and its open tunnels close within 2 s. */
  remove: (proxyUserId: string) => request<unknown>('DELETE', userPath(proxyUserId)),
  regeneratePassword: (proxyUserId: string) =>
    request<{ proxy_user: ProxyUser }>('POST', `${userPath(proxyUserId)}/regenerate-password`),
  /** Moves traffic between the plan and a proxy user with a lifetime cap. */
  moveTraffic: (proxyUserId: string, body: MoveTrafficBody) =>
    request<{ proxy_user: ProxyUser }>('POST', `${userPath(proxyUserId)}/traffic`, { body }),
}));
