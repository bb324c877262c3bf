import type { CustomerDetailResponse } from '@bytegate/contracts/admin';
import {
  getActiveUserById,
  listAuditEntriesAbout,
  listLatestOrders,
  listLedgerEntries,
  listLiveSessions,
  listUserPlansInFull,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import {
  presentAdminPlan,
  presentAuditEntry,
  presentCustomerDetail,
  presentLedgerEntry,
} from './present-back-office.ts';
import { presentAdminOrder } from './present-payments.ts';

const LEDGER_LIMIT = 100;
const ORDERS_LIMIT = 50;
const AUDIT_LIMIT = 50;

/** Everything staff see on a customer's page; a deleted or unknown account is a 404. */
export async function getCustomerDetail(
  ctx: ServiceContext,
  props: { userId: string },
): Promise<CustomerDetailResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('NOT_FOUND', 'No such customer');
  }
  const plans = await listUserPlansInFull(ctx.db, { userId: user.id });
  const [ledger, orders, sessions, audit] = await Promise.all([
    listLedgerEntries(ctx.db, { userId: user.id, limit: LEDGER_LIMIT }),
    listLatestOrders(ctx.db, { userId: user.id, limit: ORDERS_LIMIT }),
    listLiveSessions(ctx.db, { userId: user.id, now: new Date() }),
    listAuditEntriesAbout(ctx.db, {
      userId: user.id,
      planIds: plans.map((row) => row.plan.id),
      limit: AUDIT_LIMIT,
    }),
  ]);
  return {
    customer: presentCustomerDetail(user),
    ledger: ledger.map(presentLedgerEntry),
    plans: plans.map((row) => presentAdminPlan(row.plan, row.settings, row.allowlist)),
    unblocks: { ports: user.unblockedPorts, hosts: user.unblockedHosts },
    orders: orders.map((row) => presentAdminOrder(row, ctx.config.publicUrl)),
    sessions: sessions.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastUsedAt.toISOString(),
      current: false,
    })),
    audit: audit.map(presentAuditEntry),
  };
}
