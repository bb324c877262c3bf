import type { CustomerDetailResponse, ReasonRequest } from '@bytegate/contracts/admin';
import type { ApproveTopupRequest, RefundRequest } from '@bytegate/contracts/admin-payments';
import type { ChangeUnblocksRequest } from '@bytegate/contracts/unblocks';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { adminPaymentsApi, type PaymentsFilter } from './admin-payments-client.ts';
import { queryKeys } from './query-keys.ts';

// The console's money and credentials (issue 15): refunds, the payments page, review decisions,
// provider checks, new proxy passwords and unblocks. A change reads again what it touched: the
// customer's page, the payments lists and the audit log.

/** This module's keys, under the console's `admin` keys. */
const keys = {
  allPayments: ['admin', 'payments'] as const,
  payments: (filter: PaymentsFilter) => ['admin', 'payments', 'list', filter] as const,
  payment: (orderId: string) => ['admin', 'payments', 'one', orderId] as const,
  refundPreview: (orderId: string) => ['admin', 'refund-preview', orderId] as const,
};

/** After a change: the customer's page (as answered, or read again), the payments and the audit log. */
async function settle(queryClient: QueryClient, userId: string | null, detail?: CustomerDetailResponse) {
  if (userId && detail) {
    queryClient.setQueryData(queryKeys.admin.customer(userId), detail);
  } else if (userId) {
    await queryClient.invalidateQueries({ queryKey: queryKeys.admin.customer(userId) });
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.allPayments }),
    queryClient.invalidateQueries({ queryKey: queryKeys.admin.allAudit }),
    queryClient.invalidateQueries({ queryKey: queryKeys.admin.allCustomerSearches }),
  ]);
}

/** What refunding the order would move now, asked when the refund dialog opens (never cached). */
export function useRefundPreview(orderId: string, isEnabled: boolean) {
  return useQuery({
    queryKey: keys.refundPreview(orderId),
    queryFn: () => adminPaymentsApi.previewRefund(orderId),
    enabled: isEnabled,
    gcTime: 0,
    staleTime: 0,
  });
}

/** Refunds an order; the customer's page is answered as it now is. */
export function useRefund(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, ...body }: RefundRequest & { orderId: string }) =>
      adminPaymentsApi.refund(orderId, body),
    onSuccess: (answer) => settle(queryClient, userId, answer.detail),
  });
}

/** One page of every customer's payments under the given filters. */
export function usePayments(filter: PaymentsFilter) {
  return useQuery({
    queryKey: keys.payments(filter),
    queryFn: () => adminPaymentsApi.listPayments(filter),
    placeholderData: keepPreviousData,
  });
}

/** A payment's webhooks, read when its row is opened. */
export function usePayment(orderId: string, isEnabled: boolean) {
  return useQuery({
    queryKey: keys.payment(orderId),
    queryFn: () => adminPaymentsApi.getPayment(orderId),
    enabled: isEnabled,
  });
}

export function useApproveTopup(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, ...body }: ApproveTopupRequest & { orderId: string }) =>
      adminPaymentsApi.approveTopup(orderId, body),
    onSuccess: () => settle(queryClient, userId),
  });
}

export function useRejectTopup(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, ...body }: ReasonRequest & { orderId: string }) =>
      adminPaymentsApi.rejectTopup(orderId, body),
    onSuccess: () => settle(queryClient, userId),
  });
}

/** Asks the provider about a top-up now; the answer says what it said and what that did. */
export function useCheckTopup(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => adminPaymentsApi.checkTopup(orderId),
    onSuccess: () => settle(queryClient, userId),
  });
}

/** A new proxy password for a plan (the customer reads it in their dashboard). */
export function useRegeneratePassword(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ planId, ...body }: ReasonRequest & { planId: string }) =>
      adminPaymentsApi.regeneratePassword(planId, body),
    onSuccess: () => settle(queryClient, userId),
  });
}

/** Opens (or, with `remove`, closes) ports and domains for the customer. */
export function useChangeUnblocks(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeUnblocksRequest) => adminPaymentsApi.changeUnblocks(userId, body),
    onSuccess: (detail) => settle(queryClient, userId, detail),
  });
}
