import type { User } from '@bytegate/contracts/auth';
import type { UserRow } from '@bytegate/db/queries';

/** The user as the client sees it: no id, no hash; balance in dollars from integer cents. */
export function presentUser(row: UserRow): User {
  return {
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    company: row.company,
    balance: row.balanceCents / 100,
    emailVerified: row.emailVerifiedAt !== null,
  };
}
