import { type AgentPool, insertAuditEntry, setPartnerRate } from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { checkMayChangeInventory } from '../inventory/inventory-access.ts';

export const AGENT_POOLS: readonly AgentPool[] = ['datacenter', 'residential', 'mobile'];

/** The most a GB may pay a partner: a typo ($5000 for $50.00) is refused, not paid. */
const MAX_CENTS_PER_GB = 100_000;

/**
 * Dollars per GB as the operator writes them (`0.35`, `2`, `1.5`) in whole cents; null when it is not
 * an amount of dollars and cents (no thousandths: a partner's day is paid in cents).
 */
export function readRatePerGb(text: string): number | null {
  const match = /^\s*\$?(\d{1,6})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) {
    return null;
  }
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/**
 * Sets what partners earn per GB their agents carry in a pool, with its audit entry, in one transaction.
 * It applies to bytes flushed from then on: days already earned keep the rate they were earned at.
 */
export async function changePartnerRate(
  ctx: ServiceContext,
  props: { poolType: string; centsPerGb: number; reason?: string | undefined; actor: StaffActor },
): Promise<{ previous: number | null }> {
  checkMayChangeInventory(props.actor, 'agents');
  const poolType = AGENT_POOLS.find((pool) => pool === props.poolType);
  if (!poolType) {
    throw new DomainError('VALIDATION_FAILED', `The pool must be one of ${AGENT_POOLS.join(', ')}`);
  }
  if (!Number.isInteger(props.centsPerGb) || props.centsPerGb < 0 || props.centsPerGb > MAX_CENTS_PER_GB) {
    throw new DomainError('VALIDATION_FAILED', 'The rate must be from $0.00 to $1000.00 per GB');
  }
  return ctx.db.transaction(async (tx) => {
    const previous = await setPartnerRate(tx, { poolType, centsPerGb: props.centsPerGb });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'partner.rate',
      targetType: 'partner_rate',
      targetId: poolType,
      before: { centsPerGb: previous },
      after: { centsPerGb: props.centsPerGb },
      reason: props.reason ?? null,
    });
    return { previous };
  });
}
