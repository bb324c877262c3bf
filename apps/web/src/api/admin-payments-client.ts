import type { AdminPlanResponse, CustomerDetailResponse, ReasonRequest } from '@bytegate/contracts/admin';
import type {
  ApproveTopupRequest,
  CheckTopupResponse,
  PaymentDetailResponse,
  PaymentsQuery,
  PaymentsResponse,
  RefundPreview,
  RefundRequest,
  RefundResponse,
  RejectTopupRequest,
} from '@bytegate/contracts/admin-payments';
import type { ChangeUnblocksRequest } from '@bytegate/contracts/unblocks';
import { defineApiSection } from './api-client.ts';

// The console's money and credentials calls (issue 15): refunds, the payments page and its review
// queue, provider checks, a plan's new proxy password and a customer's unblocks. Kept in the console's
// chunk like admin-client.ts.

/** The payments page's filters as the console sends them; one left empty does not narrow the list. */
export type PaymentsFilter = Omit<PaymentsQuery, 'page'> & { page: number };

const orderPath = (orderId: string, tail: string) =>
  `/admin/${tail.replace(':id', encodeURIComponent(orderId))}`;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') {
      search.set(key, String(value));
    }
  }
  return search.toString();
}

export const adminPaymentsApi = defineApiSection((request) => ({
  /** Exactly what refunding an order would move now, or why it cannot be refunded. */
  previewRefund: (orderId: string) => request<RefundPreview>('GET', orderPath(orderId, 'orders/:id/refund')),
  refund: (orderId: string, body: RefundRequest) =>
    request<RefundResponse>('POST', orderPath(orderId, 'orders/:id/refund'), { body }),
  listPayments: ({ status, provider, kind, q, page }: PaymentsFilter) =>
    request<PaymentsResponse>('GET', `/admin/payments?${query({ status, provider, kind, q, page })}`),
  /** One payment with the webhooks its invoice got. */
  getPayment: (orderId: string) => request<PaymentDetailResponse>('GET', orderPath(orderId, 'payments/:id')),
  approveTopup: (orderId: string, body: ApproveTopupRequest) =>
    request<PaymentDetailResponse>('POST', orderPath(orderId, 'payments/:id/approve'), { body }),
  rejectTopup: (orderId: string, body: RejectTopupRequest) =>
    request<PaymentDetailResponse>('POST', orderPath(orderId, 'payments/:id/reject'), { body }),
  /** Asks the provider now and applies its answer, as the reconcile job does. */
  checkTopup: (orderId: string) =>
    request<CheckTopupResponse>('POST', orderPath(orderId, 'payments/:id/check')),
  regeneratePassword: (planId: string, body: ReasonRequest) =>
    request<AdminPlanResponse>('POST', `/admin/plans/${encodeURIComponent(planId)}/password`, { body }),
  changeUnblocks: (userId: string, body: ChangeUnblocksRequest) =>
    request<CustomerDetailResponse>('POST', `/admin/customers/${encodeURIComponent(userId)}/unblocks`, {
      body,
    }),
}));
