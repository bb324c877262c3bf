import { getActiveUserByEmail } from '@bytegate/db/queries';
import type { ServiceContext } from '../services/context.ts';
import { DomainError } from '../services/domain-error.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account a command names by email (any case) or by its id; a clear refusal when none matches. */
export async function resolveCustomerId(ctx: ServiceContext, reference: string): Promise<string> {
  if (UUID.test(reference)) {
    return reference.toLowerCase();
  }
  const user = await getActiveUserByEmail(ctx.db, { email: reference.trim().toLowerCase() });
  if (!user) {
    throw new DomainError('NOT_FOUND', `No account has the email ${reference}`);
  }
  return user.id;
}
