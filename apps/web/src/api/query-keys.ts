/** Query keys of server state, one factory so invalidation names stay in step. */
export const queryKeys = {
  config: ['config'] as const,
  me: ['auth', 'me'] as const,
  dashboardStats: ['dashboard', 'stats'] as const,
  dashboardTraffic: ['dashboard', 'traffic'] as const,
  balance: ['account', 'balance'] as const,
  plans: ['plans'] as const,
  plan: (planId: string) => ['plans', planId] as const,
  /** The plan of one pool, as Proxy Settings loads it (GET /api/subuser/plan). */
  poolPlan: (poolType: string) => ['plans', 'pool', poolType] as const,
  allowlist: (planId: string) => ['plans', planId, 'allowlist'] as const,
  /** A plan's proxy users, every page loaded so far. */
  proxyUsers: (planId: string) => ['plans', planId, 'proxy-users'] as const,
  proxySettings: (poolType: string) => ['proxy-settings', poolType] as const,
  geoOptions: (list: string, poolType: string, filter: object) =>
    ['geo-options', list, poolType, filter] as const,
  orders: (page: number) => ['orders', page] as const,
  allOrders: ['orders'] as const,
  threadRequests: ['thread-requests'] as const,
  apiKeys: ['api-keys'] as const,
  statsCredentials: ['stats', 'credentials'] as const,
  /** A Statistics view's answer: which part, and the view's query string. */
  stats: (part: 'series' | 'errors' | 'hosts', query: string) => ['stats', part, query] as const,
  notificationSettings: ['notifications', 'settings'] as const,
  webhookDeliveries: ['notifications', 'webhook-deliveries'] as const,
  /** A plan's low-traffic alert and auto-buy. */
  planAutomation: (planId: string) => ['plans', planId, 'automation'] as const,
  /** User Settings → Security: two-factor's status, the Google account linked, whether it has a password. */
  security: ['user-settings', 'security'] as const,
  /** Set when the server answered TWO_FACTOR_REQUIRED (query-client.tsx), never fetched. */
  twoFactorAsked: ['user-settings', 'two-factor-asked'] as const,
  profile: ['user-settings', 'profile'] as const,
  /** The account's activity feed, every page loaded so far. */
  activity: ['account', 'activity'] as const,
  admin: {
    customerSearch: (q: string) => ['admin', 'customers', 'search', q] as const,
    allCustomerSearches: ['admin', 'customers', 'search'] as const,
    customer: (userId: string) => ['admin', 'customers', userId] as const,
    audit: (filter: object) => ['admin', 'audit', filter] as const,
    allAudit: ['admin', 'audit'] as const,
    threadRequests: (filter: object) => ['admin', 'thread-requests', filter] as const,
    allThreadRequests: ['admin', 'thread-requests'] as const,
  },
};
