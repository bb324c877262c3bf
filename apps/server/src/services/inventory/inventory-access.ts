import type { AdminExit } from '@bytegate/contracts/admin-exits';
import { messages } from '@bytegate/contracts/messages';
import { type ExitRow, getExitProbe, sumExitTraffic } from '@bytegate/db/queries';
import { hasRole, type StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentExit } from './present-exit.ts';

/** The health job, as the audit log names it when it takes an exit out of rotation or puts it back. */
export const HEALTH_JOB_ACTOR: StaffActor = { userId: null, email: 'system', role: 'admin' };

/** How far back an exit's traffic health looks in the console. */
export const TRAFFIC_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Staff read the inventory (the exits, the sources of supply); only an admin (or the command line, or
 * the health job) changes it.
 */
export function checkMayChangeInventory(
  actor: StaffActor,
  what: 'exits' | 'sources' | 'agents' = 'exits',
): void {
  if (!hasRole(actor.role, 'admin')) {
    throw new DomainError(
      'FORBIDDEN',
      `${messages.adminOnly}: support may read the ${what}, not change them`,
    );
  }
}

/** One exit as the console shows it, with its last probe and its last 24 hours of traffic. */
export async function presentExitWithHealth(
  ctx: ServiceContext,
  row: ExitRow,
  now = new Date(),
): Promise<AdminExit> {
  const [probe, traffic] = await Promise.all([
    getExitProbe(ctx.db, { exitId: row.id }),
    sumExitTraffic(ctx.db, { since: new Date(now.getTime() - TRAFFIC_WINDOW_MS), exitIds: [row.id] }),
  ]);
  return presentExit(row, probe, traffic[0]);
}

export const exitNotFound = () => new DomainError('NOT_FOUND', 'No such exit');
