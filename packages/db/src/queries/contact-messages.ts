import type { Executor } from '../client.ts';
import { contactMessages } from '../schema/accounts.ts';

export type ContactMessageRow = typeof contactMessages.$inferSelect;

export async function createContactMessage(
  db: Executor,
  params: typeof contactMessages.$inferInsert,
): Promise<ContactMessageRow> {
  const [row] = await db.insert(contactMessages).values(params).returning();
  if (!row) {
    throw new Error('contact message insert returned no row');
  }
  return row;
}
