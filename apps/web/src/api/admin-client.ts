import type {
  AdjustBalanceRequest,
  AdminPlanResponse,
  AuditQuery,
  AuditResponse,
  ChangeThreadLimitRequest,
  CustomerDetailResponse,
  CustomerSearchResponse,
  ReasonRequest,
} from '@bytegate/contracts/admin';
import { defineApiSection } from './api-client.ts';

// The back office's section of the API client (issue 15): `adminApi.<call>`, typed from the contracts
// like `api.<resource>.<call>`. It lives apart from api-client.ts because that module is in the bundle
// every public page loads, and the console's calls belong to the console's chunk alone.

/** The audit log's filters as the console sends them: exact actor email, action name and target id. */
export type AuditFilter = Omit<AuditQuery, 'page'> & { page: number };

const customerPath = (userId: string, action = '') =>
  `/admin/customers/${encodeURIComponent(userId)}${action ? `/${action}` : ''}`;

/** A query string of the given parameters, leaving out those that are empty. */
function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') {
      search.set(key, String(value));
    }
  }
  return search.toString();
}

/** The staff console's calls: staff only (a customer is answered 403, an anonymous visitor 401). */
export const adminApi = defineApiSection((request) => ({
  /** Customers by email, name, proxy login, IP, order number or invoice id; empty `q`: the newest. */
  searchCustomers: (q: string) =>
    request<CustomerSearchResponse>('GET', `/admin/customers?q=${encodeURIComponent(q)}`),
  getCustomer: (userId: string) => request<CustomerDetailResponse>('GET', customerPath(userId)),
  adjustBalance: (userId: string, body: AdjustBalanceRequest) =>
    request<CustomerDetailResponse>('POST', customerPath(userId, 'balance'), { body }),
  disableCustomer: (userId: string, body: ReasonRequest) =>
    request<CustomerDetailResponse>('POST', customerPath(userId, 'disable'), { body }),
  enableCustomer: (userId: string, body: ReasonRequest) =>
    request<CustomerDetailResponse>('POST', customerPath(userId, 'enable'), { body }),
  revokeSessions: (userId: string, body: ReasonRequest) =>
    request<CustomerDetailResponse>('POST', customerPath(userId, 'sessions/revoke'), { body }),
  resetTwoFactor: (userId: string, body: ReasonRequest) =>
    request<CustomerDetailResponse>('POST', customerPath(userId, 'two-factor/reset'), { body }),
  sendPasswordReset: (userId: string, body: ReasonRequest) =>
    request<CustomerDetailResponse>('POST', customerPath(userId, 'password-reset'), { body }),
  changeThreadLimit: (planId: string, body: ChangeThreadLimitRequest) =>
    request<AdminPlanResponse>('POST', `/admin/plans/${encodeURIComponent(planId)}/threads`, { body }),
  /** One page of the audit log; a filter left empty does not narrow it. */
  listAudit: ({ actor, action, targetId, page }: AuditFilter) =>
    request<AuditResponse>('GET', `/admin/audit?${query({ actor, action, targetId, page })}`),
}));
