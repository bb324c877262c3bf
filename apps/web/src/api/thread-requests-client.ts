import type {
  CreateThreadRequest,
  ThreadRequest,
  ThreadRequestListResponse,
} from '@bytegate/contracts/thread-requests';
import { defineApiSection } from './api-client.ts';

// The customer's thread requests (issue 15): asking support for more threads on a plan. A section of
// its own, so that only the dashboard, which shows them, loads it.

export const threadRequestsApi = defineApiSection((request) => ({
  /** The customer's requests, newest first, with their status and support's answer. */
  list: () => request<ThreadRequestListResponse>('GET', '/thread-requests'),
  create: (body: CreateThreadRequest) => request<ThreadRequest>('POST', '/thread-requests', { body }),
  cancel: (requestId: string) =>
    request<ThreadRequest>('POST', `/thread-requests/${encodeURIComponent(requestId)}/cancel`, { body: {} }),
}));
