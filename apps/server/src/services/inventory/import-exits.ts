import type { ImportProblem } from '@bytegate/contracts/admin-exits';
import { createExits, insertAuditEntry, type NewExit } from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { describeExitIssues, exitInputSchema, parseExitRows, toNewExit } from './exit-input.ts';
import { checkMayChangeInventory } from './inventory-access.ts';

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters a statement, and an exit has 16 columns. */
const INSERT_CHUNK = 1000;

/**
 * Adds the exits of a CSV or JSON file, all or nothing: every row is read by the rules of
 * `bytegate exits add` first, and one bad row refuses the whole file with every problem, line by line
 * (400 VALIDATION_FAILED with `problems`). The rows go in in one transaction, with one audit entry.
 */
export async function importExits(
  ctx: ServiceContext,
  props: { content: string; format: 'csv' | 'json'; reason?: string | undefined; actor: StaffActor },
): Promise<{ imported: number }> {
  checkMayChangeInventory(props.actor);
  let rows: ReturnType<typeof parseExitRows>;
  try {
    rows = parseExitRows(props.content, props.format);
  } catch (error) {
    throw new DomainError('VALIDATION_FAILED', `Nothing was imported: ${(error as Error).message}`);
  }
  if (rows.length === 0) {
    throw new DomainError('VALIDATION_FAILED', 'Nothing was imported: the file holds no exits');
  }
  const problems: ImportProblem[] = [];
  const exits: NewExit[] = [];
  for (const row of rows) {
    const parsed = exitInputSchema.safeParse(row.fields);
    if (parsed.success) {
      exits.push(toNewExit(parsed.data));
    } else {
      problems.push({ line: row.line, message: describeExitIssues(parsed.error) });
    }
  }
  if (problems.length > 0) {
    const lines = problems.length === 1 ? '1 line has a problem' : `${problems.length} lines have problems`;
    throw new DomainError('VALIDATION_FAILED', `Nothing was imported: ${lines}`, { problems });
  }
  await ctx.db.transaction(async (tx) => {
    const ids: string[] = [];
    for (let start = 0; start < exits.length; start += INSERT_CHUNK) {
      const created = await createExits(tx, { exits: exits.slice(start, start + INSERT_CHUNK) });
      ids.push(...created.map((exit) => exit.id));
    }
    const byPool: Record<string, number> = {};
    for (const exit of exits) {
      byPool[exit.poolType] = (byPool[exit.poolType] ?? 0) + 1;
    }
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'exit.import',
      targetType: 'inventory',
      // The first new exit stands for the batch (they share the transaction's created_at).
      targetId: ids[0] ?? 'exits',
      before: null,
      after: { count: ids.length, format: props.format, ...byPool },
      reason: props.reason ?? null,
    });
  });
  return { imported: exits.length };
}
