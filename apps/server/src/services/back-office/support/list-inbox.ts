import {
  type ContactStatus,
  INBOX_PAGE_SIZE,
  type InboxAssigneeFilter,
  type InboxResponse,
} from '@bytegate/contracts/admin-support';
import { countContactMessagesByStatus, listContactMessages } from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import type { StaffActor } from '../staff-actor.ts';
import { presentInboxItem } from './present-support.ts';

/**
 * One page of the inbox, newest first, under a status, whose messages ('me' is the actor) and a search
 * text (name, email, subject or message, contains); with the count of every status under the other
 * filters, for the tabs.
 */
export async function listInbox(
  ctx: ServiceContext,
  props: {
    status?: ContactStatus | undefined;
    assignee: InboxAssigneeFilter;
    q: string;
    page: number;
    actor: StaffActor;
  },
): Promise<InboxResponse> {
  const assigneeUserId =
    props.assignee === 'me' ? props.actor.userId : props.assignee === 'unassigned' ? null : undefined;
  const filter = { assigneeUserId, text: props.q.trim() || undefined };
  const [{ rows, total }, counts] = await Promise.all([
    listContactMessages(ctx.db, {
      ...filter,
      status: props.status,
      limit: INBOX_PAGE_SIZE,
      offset: (props.page - 1) * INBOX_PAGE_SIZE,
    }),
    countContactMessagesByStatus(ctx.db, filter),
  ]);
  return {
    messages: rows.map(presentInboxItem),
    counts: { all: counts.new + counts.open + counts.answered + counts.closed, ...counts },
    pagination: {
      currentPage: props.page,
      totalPages: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)),
      totalItems: total,
      itemsPerPage: INBOX_PAGE_SIZE,
    },
  };
}
