import type {
  AssignContactRequest,
  ContactNoteRequest,
  ContactReplyRequest,
  ContactThreadResponse,
  SetContactStatusRequest,
} from '@bytegate/contracts/admin-support';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type InboxFilter, supportApi } from './admin-support-client.ts';
import { queryKeys } from './query-keys.ts';

// The support inbox's and the Outbox's server state (issue 15). Every action on a thread answers the
// thread as it now is, which replaces the cached one; the inbox lists, the audit log and (after a reply)
// the Outbox are read again.

/** The inbox's and the Outbox's query keys, under the console's 'admin' root like query-keys.ts's. */
export const supportKeys = {
  allInbox: ['admin', 'inbox', 'list'] as const,
  inbox: (filter: InboxFilter) => ['admin', 'inbox', 'list', filter] as const,
  thread: (messageId: string) => ['admin', 'inbox', 'thread', messageId] as const,
  assignees: ['admin', 'inbox', 'assignees'] as const,
  allOutbox: ['admin', 'outbox', 'list'] as const,
  outboxMessage: (outboxId: string) => ['admin', 'outbox', 'message', outboxId] as const,
};

/** Who may be assigned changes rarely (a role granted on the command line). */
const ASSIGNEES_STALE_MS = 5 * 60_000;

/** One page of the inbox under the filters, with the count of every status for the tabs. */
export function useInbox(filter: InboxFilter) {
  return useQuery({
    queryKey: supportKeys.inbox(filter),
    queryFn: () => supportApi.listInbox(filter),
    placeholderData: keepPreviousData,
  });
}

/** A message's thread: the message, the customer it is from, notes and replies. */
export function useContactThread(messageId: string) {
  return useQuery({
    queryKey: supportKeys.thread(messageId),
    queryFn: () => supportApi.getThread(messageId),
  });
}

/** The staff a message may be assigned to, the signed-in one marked. */
export function useAssignees() {
  return useQuery({
    queryKey: supportKeys.assignees,
    queryFn: () => supportApi.listAssignees(),
    staleTime: ASSIGNEES_STALE_MS,
  });
}

/** An action on a thread: its answer replaces the cached thread, and the lists are read again. */
function useThreadAction<T>(
  messageId: string,
  act: (body: T) => Promise<ContactThreadResponse>,
  options: { touchesOutbox?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: act,
    onSuccess: async (thread) => {
      queryClient.setQueryData(supportKeys.thread(messageId), thread);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: supportKeys.allInbox }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.allAudit }),
        options.touchesOutbox ? queryClient.invalidateQueries({ queryKey: supportKeys.allOutbox }) : null,
      ]);
    },
  });
}

export function useSetContactStatus(messageId: string) {
  return useThreadAction(messageId, (body: SetContactStatusRequest) => supportApi.setStatus(messageId, body));
}

export function useAssignContact(messageId: string) {
  return useThreadAction(messageId, (body: AssignContactRequest) => supportApi.assign(messageId, body));
}

export function useAddContactNote(messageId: string) {
  return useThreadAction(messageId, (body: ContactNoteRequest) => supportApi.addNote(messageId, body));
}

/** Mails a reply to the sender; the thread then holds it and the message is answered. */
export function useReplyToContact(messageId: string) {
  return useThreadAction(messageId, (body: ContactReplyRequest) => supportApi.reply(messageId, body), {
    touchesOutbox: true,
  });
}

/** The outbox, newest first, a page at a time ("Load older" fetches the next). */
export function useOutbox() {
  return useInfiniteQuery({
    queryKey: supportKeys.allOutbox,
    queryFn: ({ pageParam }) => supportApi.listOutbox(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextBefore,
  });
}

/** One outbox message: headers, text and HTML. Written once, so never stale. */
export function useOutboxMessage(outboxId: string | null) {
  return useQuery({
    queryKey: supportKeys.outboxMessage(outboxId ?? ''),
    queryFn: () => supportApi.getOutboxMessage(outboxId ?? ''),
    enabled: outboxId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
