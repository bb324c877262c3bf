import { AUDIT_PAGE_SIZE, type AuditResponse } from '@bytegate/contracts/admin';
import { listAuditEntries } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { presentAuditEntry } from './present-back-office.ts';

/** One page of the audit log, newest first; filters are exact (actor email, action, target id). */
export async function listAuditLog(
  ctx: ServiceContext,
  props: {
    actor?: string | undefined;
    action?: string | undefined;
    targetId?: string | undefined;
    page: number;
  },
): Promise<AuditResponse> {
  const { rows, total } = await listAuditEntries(ctx.db, {
    actorEmail: props.actor ? props.actor.toLowerCase() : undefined,
    action: props.action || undefined,
    targetId: props.targetId || undefined,
    limit: AUDIT_PAGE_SIZE,
    offset: (props.page - 1) * AUDIT_PAGE_SIZE,
  });
  return {
    entries: rows.map(presentAuditEntry),
    pagination: {
      currentPage: props.page,
      totalPages: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)),
      totalItems: total,
      itemsPerPage: AUDIT_PAGE_SIZE,
    },
  };
}
