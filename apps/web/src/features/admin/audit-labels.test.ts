import { describe, expect, it } from 'vitest';
import {
  auditActionLabel,
  auditChanges,
  auditCustomerId,
  fieldLabel,
  formatAuditValue,
} from './audit-labels.ts';

describe('audit entries as people read them', () => {
  it('keeps what changed and the one-sided facts, leaving out unchanged values and ids', () => {
    expect(auditChanges({ threadLimit: 500, userId: 'u1' }, { threadLimit: 250, userId: 'u1' })).toEqual([
      { key: 'threadLimit', kind: 'changed', before: 500, after: 250 },
    ]);
    expect(
      auditChanges({ balanceCents: 505 }, { balanceCents: 1755, amountCents: 1250, ledgerEntryId: 'l1' }),
    ).toEqual([
      { key: 'balanceCents', kind: 'changed', before: 505, after: 1755 },
      { key: 'amountCents', kind: 'after', before: undefined, after: 1250 },
    ]);
    expect(
      auditChanges({ status: 'disabled', disabledAt: '2026-01-02T03:04:05Z' }, { status: 'active' }),
    ).toEqual([
      { key: 'status', kind: 'changed', before: 'disabled', after: 'active' },
      { key: 'disabledAt', kind: 'before', before: '2026-01-02T03:04:05Z', after: undefined },
    ]);
    expect(auditChanges(null, null)).toEqual([]);
  });

  it('writes cents as dollars (an amount signed), times as dates, and names fields', () => {
    expect(formatAuditValue('balanceCents', 1755)).toBe('$17.55');
    expect(formatAuditValue('amountCents', 1250)).toBe('+$12.50');
    expect(formatAuditValue('amountCents', -300)).toBe('-$3.00');
    expect(formatAuditValue('threadLimit', 10000)).toBe('10,000');
    expect(formatAuditValue('disabledAt', '2026-01-02T03:04:05Z')).toMatch(/2026/);
    expect(formatAuditValue('status', null)).toBe('—');
    expect(formatAuditValue('planTotalBytes', 5 * 1024 ** 3)).toBe('5.00 GB');
    expect(formatAuditValue('ports', [25, 587])).toBe('25, 587');
    expect(formatAuditValue('hosts', [])).toBe('None');
    expect(fieldLabel('threadLimit')).toBe('Thread limit');
    expect(fieldLabel('someNewField')).toBe('Some new field');
    expect(auditActionLabel('customer.balance.adjust')).toBe('Balance adjusted');
    expect(auditActionLabel('something.new')).toBe('something.new');
  });

  it("finds the customer of an entry: the target, or a plan's owner", () => {
    expect(auditCustomerId({ targetType: 'user', targetId: 'u1', before: null, after: null })).toBe('u1');
    expect(
      auditCustomerId({ targetType: 'plan', targetId: 'p1', before: null, after: { userId: 'u2' } }),
    ).toBe('u2');
    expect(auditCustomerId({ targetType: 'plan', targetId: 'p1', before: null, after: null })).toBeNull();
  });
});
