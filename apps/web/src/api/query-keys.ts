/** Query keys of server state, one factory so invalidation names stay in step. */
export const queryKeys = {
  config: ['config'] as const,
  me: ['auth', 'me'] as const,
  dashboardStats: ['dashboard', 'stats'] as const,
  dashboardTraffic: ['dashboard', 'traffic'] as const,
  balance: ['account', 'balance'] as const,
  plans: ['plans'] as const,
  plan: (planId: string) => ['plans', planId] as const,
  allowlist: (planId: string) => ['plans', planId, 'allowlist'] as const,
  proxySettings: (poolType: string) => ['proxy-settings', poolType] as const,
  geoOptions: (list: string, poolType: string, filter: object) =>
    ['geo-options', list, poolType, filter] as const,
  orders: (page: number) => ['orders', page] as const,
  allOrders: ['orders'] as const,
};
