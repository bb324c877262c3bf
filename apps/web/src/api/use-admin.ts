import type {
  AdjustBalanceRequest,
  ChangeThreadLimitRequest,
  CustomerDetailResponse,
  ReasonRequest,
  StaffRole,
  UserRole,
} from '@bytegate/contracts/admin';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type AuditFilter, adminApi } from './admin-client.ts';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

// The back office's server state (issue 15): who the signed-in user is to Bytegate, the customer search,
// a customer's page, the staff actions on it, and the audit log. Every action answers the customer's page
// as it now is, which replaces the cached one; the audit log and the search results are read again.

/** How long the signed-in user's role is taken as known before it is asked again. */
const ROLE_STALE_MS = 60_000;

/** `GET /api/auth/me`: the signed-in user with their role. */
export function useMe() {
  return useQuery({ queryKey: queryKeys.me, queryFn: () => api.auth.me(), staleTime: ROLE_STALE_MS });
}

/**
 * Which roles open the console, as contracts' `isStaffRole` says, written as a map typed by the roles so
 * that the dashboard (which shows staff the Console link) does not load the console's schemas with it.
 */
const IS_STAFF: Record<UserRole, boolean> = { customer: false, support: true, admin: true, partner: false };
const isStaff = (role: UserRole): role is StaffRole => IS_STAFF[role];

/** The signed-in user's staff role, or null for a customer (undefined while it is not known yet). */
export function useStaffRole(): StaffRole | null | undefined {
  const { data } = useMe();
  if (!data) {
    return undefined;
  }
  return isStaff(data.role) ? data.role : null;
}

/** Customers matching `q` (email, name, proxy login, IP, order number, invoice id); empty: the newest. */
export function useCustomerSearch(q: string) {
  return useQuery({
    queryKey: queryKeys.admin.customerSearch(q),
    queryFn: () => adminApi.searchCustomers(q),
    placeholderData: keepPreviousData,
  });
}

/** A customer's page: profile, ledger, plans, unblocks, orders, sessions and the audit entries about them. */
export function useCustomer(userId: string) {
  return useQuery({
    queryKey: queryKeys.admin.customer(userId),
    queryFn: () => adminApi.getCustomer(userId),
  });
}

/** After an action: the customer's page as the server answered it, the log and the search read again. */
async function settle(queryClient: QueryClient, userId: string, detail?: CustomerDetailResponse) {
  if (detail) {
    queryClient.setQueryData(queryKeys.admin.customer(userId), detail);
  } else {
    await queryClient.invalidateQueries({ queryKey: queryKeys.admin.customer(userId) });
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.admin.allAudit }),
    queryClient.invalidateQueries({ queryKey: queryKeys.admin.allCustomerSearches }),
  ]);
}

/** Credits (positive) or debits (negative) the customer's balance, with the reason the log keeps. */
export function useAdjustBalance(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdjustBalanceRequest) => adminApi.adjustBalance(userId, body),
    onSuccess: (detail) => settle(queryClient, userId, detail),
  });
}

/** Disables the account (it can no longer sign in, its sessions end, its proxies stop) or enables it again. */
export function useSetAccountStatus(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ isDisabled, ...body }: ReasonRequest & { isDisabled: boolean }) =>
      isDisabled ? adminApi.disableCustomer(userId, body) : adminApi.enableCustomer(userId, body),
    onSuccess: (detail) => settle(queryClient, userId, detail),
  });
}

/** Ends every open dashboard session of the customer. */
export function useRevokeSessions(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReasonRequest) => adminApi.revokeSessions(userId, body),
    onSuccess: (detail) => settle(queryClient, userId, detail),
  });
}

/** Turns the customer's two-factor off (a lost phone): they are signed out and sign in with the password alone. */
export function useResetTwoFactor(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReasonRequest) => adminApi.resetTwoFactor(userId, body),
    onSuccess: (detail) => settle(queryClient, userId, detail),
  });
}

/** Mails the customer a link to set a new password (to their address only; staff never see it). */
export function useSendPasswordReset(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReasonRequest) => adminApi.sendPasswordReset(userId, body),
    onSuccess: (detail) => settle(queryClient, userId, detail),
  });
}

/** Sets a plan's thread limit; the plan is answered, so the customer's page is read again for the log. */
export function useChangeThreadLimit(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ planId, ...body }: ChangeThreadLimitRequest & { planId: string }) =>
      adminApi.changeThreadLimit(planId, body),
    onSuccess: async ({ plan }) => {
      queryClient.setQueryData<CustomerDetailResponse>(queryKeys.admin.customer(userId), (detail) =>
        detail
          ? { ...detail, plans: detail.plans.map((known) => (known.id === plan.id ? plan : known)) }
          : detail,
      );
      await settle(queryClient, userId);
    },
  });
}

/** One page of the audit log under the given filters. */
export function useAudit(filter: AuditFilter) {
  return useQuery({
    queryKey: queryKeys.admin.audit(filter),
    queryFn: () => adminApi.listAudit(filter),
    placeholderData: keepPreviousData,
  });
}
