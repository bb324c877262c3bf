import type { Database } from '@bytegate/db';
import { getActiveUserByEmail, insertAuditEntry, lockUser, setUserUnblocks } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import { checkMayActOn } from '../back-office/lock-customer.ts';
import { CLI_ACTOR, type StaffActor } from '../back-office/staff-actor.ts';
import { DomainError } from '../domain-error.ts';

// The rules of what may be unblocked live in the contracts, shared with the console and its API.
export { parseUnblockHost, parseUnblockPort } from '@bytegate/contracts/unblocks';

export interface Unblocked {
  ports: number[];
  hosts: string[];
}

export type ChangeUnblocksProps = (
  | { /** The account by email (the command line). */ email: string; userId?: undefined }
  | { /** The account by id (the console). */ userId: string; email?: undefined }
) & {
  ports: number[];
  hosts: string[];
  remove: boolean;
  /** Who changes them, for the audit log; left out, the operator on the host (`bytegate unblock`). */
  actor?: StaffActor | undefined;
  /** Why, kept in the audit log (the console requires one; the command line may leave it out). */
  reason?: string | null | undefined;
};

/**
 * Adds or removes a customer's unblocked ports and hosts (support's tool; SPEC section 6), with its
 * audit entry (before and after) in the same transaction under the account's row lock. The running
 * gateway applies the change within about a second. Nothing to change records nothing. Answers the
 * customer's unblocks afterwards.
 */
export async function changeUnblocks(db: Database, props: ChangeUnblocksProps): Promise<Unblocked> {
  const actor = props.actor ?? CLI_ACTOR;
  return db.transaction(async (tx) => {
    const found =
      props.email !== undefined
        ? await getActiveUserByEmail(tx, { email: props.email.trim().toLowerCase() })
        : null;
    const userId = props.userId ?? found?.id;
    const user = userId ? await lockUser(tx, { userId }) : null;
    if (!user) {
      throw new DomainError(
        'NOT_FOUND',
        props.email !== undefined ? `No account has the email ${props.email}` : 'No such customer',
      );
    }
    const before: Unblocked = {
      ports: [...user.unblockedPorts].sort((a, b) => a - b),
      hosts: [...user.unblockedHosts].sort(),
    };
    const ports = new Set(before.ports);
    const hosts = new Set(before.hosts);
    for (const port of props.ports) {
      props.remove ? ports.delete(port) : ports.add(port);
    }
    for (const host of props.hosts) {
      props.remove ? hosts.delete(host) : hosts.add(host);
    }
    const next: Unblocked = { ports: [...ports].sort((a, b) => a - b), hosts: [...hosts].sort() };
    if (JSON.stringify(next) === JSON.stringify(before)) {
      return next;
    }
    checkMayActOn(actor, user);
    await setUserUnblocks(tx, { userId: user.id, ...next });
    await insertAuditEntry(tx, {
      actorUserId: actor.userId,
      actorEmail: actor.email,
      action: 'customer.unblocks.change',
      targetType: 'user',
      targetId: user.id,
      before: { ports: before.ports, hosts: before.hosts },
      after: { ports: next.ports, hosts: next.hosts },
      reason: props.reason ?? null,
    });
    // What this change opened (or closed), worded for the customer without staff's reason.
    const [from, to] = props.remove ? [before, next] : [next, before];
    await recordActivity(tx, {
      userId: user.id,
      kind: 'support_unblocks_changed',
      details: {
        ports: from.ports.filter((port) => !to.ports.includes(port)),
        hosts: from.hosts.filter((host) => !to.hosts.includes(host)),
        isRemoved: props.remove,
      },
    });
    return next;
  });
}
