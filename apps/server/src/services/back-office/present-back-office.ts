import type {
  AdminLedgerEntry,
  AdminPlan,
  AuditEntry,
  CustomerDetail,
  CustomerMatch,
  CustomerStatus,
  CustomerSummary,
} from '@bytegate/contracts/admin';
import { centsToDollars } from '@bytegate/contracts/money';
import type { AuditEntryRow, LedgerEntryRow, PlanRow, ProxySettingsRow, UserRow } from '@bytegate/db/queries';
import { presentProxySettings } from '../proxy-settings/present-proxy-settings.ts';

// The back office's presenters: what staff see of a customer. Never the password hash; the proxy
// password is left out too (support never needs it, and the customer can regenerate it).

const statusOf = (row: UserRow): CustomerStatus => (row.disabledAt ? 'disabled' : 'active');

export function presentCustomerSummary(row: UserRow, matchedBy: CustomerMatch): CustomerSummary {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    status: statusOf(row),
    balance: centsToDollars(row.balanceCents),
    createdAt: row.createdAt.toISOString(),
    matchedBy,
  };
}

export function presentCustomerDetail(row: UserRow): CustomerDetail {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    role: row.role,
    status: statusOf(row),
    twoFactorEnabledAt: row.totpSecret ? (row.totpEnabledAt?.toISOString() ?? null) : null,
    balance: centsToDollars(row.balanceCents),
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentLedgerEntry(row: LedgerEntryRow): AdminLedgerEntry {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    amount: centsToDollars(row.amountCents),
    balanceAfter: centsToDollars(row.balanceAfterCents),
    kind: row.kind,
    note: row.reason,
  };
}

export function presentAdminPlan(
  plan: PlanRow,
  settings: ProxySettingsRow | null,
  allowlist: string[],
): AdminPlan {
  return {
    id: plan.id,
    poolType: plan.poolType,
    login: plan.login,
    trafficTotalBytes: plan.trafficTotalBytes,
    trafficUsedBytes: plan.trafficUsedBytes,
    threadLimit: plan.threadLimit,
    isActive: plan.isActive,
    savedTargeting: settings ? presentProxySettings(plan.poolType, settings) : null,
    allowlist,
  };
}

export function presentAuditEntry(row: AuditEntryRow): AuditEntry {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    actorEmail: row.actorEmail,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    before: row.before ?? null,
    after: row.after ?? null,
    reason: row.reason,
  };
}
