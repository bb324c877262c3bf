import type { UserRole } from '@bytegate/contracts/admin';
import type { UserRow } from '@bytegate/db/queries';

/** Who does a back-office action, as the audit log records it. */
export interface StaffActor {
  /** Null for the `bytegate` command, which acts as the operator of the host, not as a user. */
  userId: string | null;
  /** The actor's email at the time, or 'cli'. */
  email: string;
  /** What the actor may do; the command line may do everything an admin may. */
  role: UserRole;
}

/** The `bytegate` command on the server's host: whoever runs it already holds the database. */
export const CLI_ACTOR: StaffActor = { userId: null, email: 'cli', role: 'admin' };

/** A signed-in staff user as the actor of what they do. */
export function staffActorOf(user: UserRow): StaffActor {
  return { userId: user.id, email: user.email, role: user.role };
}

const RANKS: Record<UserRole, number> = { customer: 0, partner: 0, support: 1, admin: 2 };

/** Whether a role includes another: admin includes support, both include customer (a partner is none of staff). */
export function hasRole(role: UserRole, needed: UserRole): boolean {
  return RANKS[role] >= RANKS[needed];
}
