import type {
  AssignContactRequest,
  AssigneesResponse,
  ContactNoteRequest,
  ContactReplyRequest,
  ContactStatus,
  ContactThreadResponse,
  InboxAssigneeFilter,
  InboxResponse,
  OutboxMessageResponse,
  OutboxResponse,
  SetContactStatusRequest,
} from '@bytegate/contracts/admin-support';
import { defineApiSection } from './api-client.ts';

// The support inbox's and the Outbox's section of the API client (issue 15): `supportApi.<call>`, typed
// from the contracts, kept out of the public pages' bundle like admin-client.ts.

/** The inbox's filters as the console sends them: a status (or every one), whose, a search text, the page. */
export interface InboxFilter {
  status: ContactStatus | null;
  assignee: InboxAssigneeFilter;
  q: string;
  page: number;
}

const threadPath = (messageId: string, action = '') =>
  `/admin/inbox/${encodeURIComponent(messageId)}${action ? `/${action}` : ''}`;

/** The inbox's query string, leaving out what does not narrow it. */
function inboxQuery({ status, assignee, q, page }: InboxFilter): string {
  const search = new URLSearchParams();
  if (status) {
    search.set('status', status);
  }
  if (assignee !== 'anyone') {
    search.set('assignee', assignee);
  }
  if (q.trim()) {
    search.set('q', q.trim());
  }
  if (page > 1) {
    search.set('page', String(page));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Staff only (a customer is answered 403, an anonymous visitor 401). */
export const supportApi = defineApiSection((request) => ({
  listInbox: (filter: InboxFilter) => request<InboxResponse>('GET', `/admin/inbox${inboxQuery(filter)}`),
  listAssignees: () => request<AssigneesResponse>('GET', '/admin/inbox/assignees'),
  getThread: (messageId: string) => request<ContactThreadResponse>('GET', threadPath(messageId)),
  setStatus: (messageId: string, body: SetContactStatusRequest) =>
    request<ContactThreadResponse>('POST', threadPath(messageId, 'status'), { body }),
  assign: (messageId: string, body: AssignContactRequest) =>
    request<ContactThreadResponse>('POST', threadPath(messageId, 'assign'), { body }),
  addNote: (messageId: string, body: ContactNoteRequest) =>
    request<ContactThreadResponse>('POST', threadPath(messageId, 'notes'), { body }),
  reply: (messageId: string, body: ContactReplyRequest) =>
    request<ContactThreadResponse>('POST', threadPath(messageId, 'replies'), { body }),
  /** One page of the outbox, newest first; `before` (an id) pages on to older messages. */
  listOutbox: (before: string | null) =>
    request<OutboxResponse>('GET', `/admin/outbox${before ? `?before=${encodeURIComponent(before)}` : ''}`),
  getOutboxMessage: (outboxId: string) =>
    request<OutboxMessageResponse>('GET', `/admin/outbox/${encodeURIComponent(outboxId)}`),
}));
