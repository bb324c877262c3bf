import type { AuditAction } from '@bytegate/contracts/admin';

/** Each audit action as people read it in the console. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'staff.grant': 'Staff role granted',
  'staff.revoke': 'Staff role revoked',
  'customer.balance.adjust': 'Balance adjusted',
  'customer.disable': 'Account disabled',
  'customer.enable': 'Account enabled',
  'customer.sessions.revoke': 'Sessions revoked',
  'customer.two_factor.reset': 'Two-factor reset',
  'customer.password_reset.send': 'Password reset link sent',
  'plan.threads.change': 'Thread limit changed',
  'plan.password.regenerate': 'Proxy password replaced',
  'customer.unblocks.change': 'Unblocks changed',
  'order.refund': 'Order refunded',
  'topup.approve': 'Top-up approved',
  'topup.reject': 'Top-up rejected',
  'topup.check': 'Checked with provider',
  'thread_request.approve': 'Thread request approved',
  'thread_request.decline': 'Thread request declined',
  'exit.add': 'Exit added',
  'exit.import': 'Exits imported',
  'exit.disable': 'Exit disabled',
  'exit.enable': 'Exit enabled',
  'exit.remove': 'Exit removed',
  'exit.rotation.out': 'Exit taken out of rotation',
  'exit.rotation.restore': 'Exit put back into rotation',
  'source.add': 'Source added',
  'source.change': 'Source changed',
  'source.reconcile': 'Vendor usage imported',
  'contact.status': 'Message status changed',
  'contact.assign': 'Message assigned',
  'contact.note': 'Note added',
  'contact.reply': 'Reply sent',
  'outbox.read': 'Outbox message read',
  'agent.token': 'Agent token made',
  'agent.revoke': 'Agent token revoked',
  'agent.ban': 'Agent banned',
  'agent.quarantine': 'Agent quarantined',
  'agent.release': 'Agent released from quarantine',
  'partner.rate': "Partners' rate set",
};

/** An action's label; an action this build does not know yet shows as its name. */
export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action as AuditAction] ?? action;
}

const FIELD_LABELS: Record<string, string> = {
  balance: 'Balance',
  balanceCents: 'Balance',
  amountCents: 'Amount',
  status: 'Status',
  threadLimit: 'Thread limit',
  requestedThreads: 'Threads asked for',
  role: 'Role',
  liveSessions: 'Open sessions',
  revokedSessions: 'Sessions revoked',
  disabledAt: 'Disabled since',
  ports: 'Ports',
  hosts: 'Domains',
  order: 'Order',
  providerStatus: 'Provider status',
  planTotalBytes: 'Plan traffic',
  refundedBytes: 'Traffic refunded',
  password: 'Proxy password',
  assignee: 'Assignee',
  note: 'Note',
  reply: 'Reply',
  to: 'Sent to',
  validMinutes: 'Link valid (minutes)',
  outOfRotationReason: 'Out of rotation because',
  costPerGbCents: 'Cost per GB',
  url: 'Endpoint',
};

/** A changed field's name as a label: 'threadLimit' is 'Thread limit'. */
export function fieldLabel(key: string): string {
  const known = FIELD_LABELS[key];
  if (known) {
    return known;
  }
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.]/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A before or after value as text: cents ('…Cents') as dollars, times as dates, numbers grouped. */
export function formatAuditValue(key: string, value: unknown): string {
  if (value === null || value === undefined) {
    return '—';
  }
  if (typeof value === 'number') {
    if (/bytes$/i.test(key)) {
      return `${(value / 1024 ** 3).toFixed(2)} GB`;
    }
    if (/cents$/i.test(key)) {
      const sign = key === 'amountCents' && value > 0 ? '+' : value < 0 ? '-' : '';
      return `${sign}$${(Math.abs(value) / 100).toFixed(2)}`;
    }
    return value.toLocaleString('en-US');
  }
  if (typeof value === 'string') {
    return ISO_TIME.test(value) ? dateTime.format(new Date(value)) : value;
  }
  if (typeof value === 'boolean') {
    return value ? 'Yes' : 'No';
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? 'None' : value.join(', ');
  }
  return JSON.stringify(value);
}

/** One line of an entry's change: a value that changed, or one that was only recorded before or after. */
export interface AuditChange {
  key: string;
  kind: 'changed' | 'after' | 'before';
  before: unknown;
  after: unknown;
}

/**
 * What an entry changed, as people read it: the values that differ before and after, and the facts
 * recorded on one side only (the amount of an adjustment, the sessions a disable ended). Values the
 * same on both sides and ids (the plan's owner, the ledger row) are context, not change: left out.
 */
export function auditChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): AuditChange[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: AuditChange[] = [];
  for (const key of keys) {
    if (/Id$/.test(key)) {
      continue;
    }
    const isBefore = before !== null && key in before;
    const isAfter = after !== null && key in after;
    const was = before?.[key];
    const now = after?.[key];
    if (isBefore && isAfter) {
      if (JSON.stringify(was) !== JSON.stringify(now)) {
        changes.push({ key, kind: 'changed', before: was, after: now });
      }
    } else {
      changes.push({ key, kind: isAfter ? 'after' : 'before', before: was, after: now });
    }
  }
  return changes;
}

/** The customer an entry is about: its target when that is a user, the plan's owner when it is a plan. */
export function auditCustomerId(entry: {
  targetType: string;
  targetId: string;
  after: Record<string, unknown> | null;
  before: Record<string, unknown> | null;
}): string | null {
  if (entry.targetType === 'user') {
    return entry.targetId;
  }
  const owner = entry.after?.userId ?? entry.before?.userId;
  return typeof owner === 'string' ? owner : null;
}
