import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { sourceVendorUsage, supplySources } from '../schema/supply.ts';

// What vendors say their networks carried, per source and UTC day (supply.ts), imported from their usage
// exports to set against our own count.

export type VendorUsageRow = typeof sourceVendorUsage.$inferSelect;

/** One day's figure of an import. */
export interface VendorUsageDay {
  day: Date;
  vendorBytes: number;
}

/**
 * Writes an import's days for a source, each replacing the figure the day had, and answers the figures
 * replaced (for the audit's before); undefined when there is no such source. The source's row is locked
 * first (FOR NO KEY UPDATE: the usage flush's foreign-key checks go on), so two imports of one source
 * run one after the other and each audit's before is what the day really held.
 */
export async function replaceVendorUsage(
  tx: Executor,
  params: { sourceId: string; days: VendorUsageDay[]; importedBy: string; at: Date },
): Promise<VendorUsageRow[] | undefined> {
  const [source] = await tx
    .select({ id: supplySources.id })
    .from(supplySources)
    .where(eq(supplySources.id, params.sourceId))
    .for('no key update');
  if (!source) {
    return undefined;
  }
  if (params.days.length === 0) {
    return [];
  }
  const before = await tx
    .select()
    .from(sourceVendorUsage)
    .where(
      and(
        eq(sourceVendorUsage.sourceId, params.sourceId),
        inArray(
          sourceVendorUsage.day,
          params.days.map((day) => day.day),
        ),
      ),
    )
    .for('update');
  await tx
    .insert(sourceVendorUsage)
    .values(
      params.days.map((day) => ({
        sourceId: params.sourceId,
        day: day.day,
        vendorBytes: day.vendorBytes,
        importedAt: params.at,
        importedBy: params.importedBy,
      })),
    )
    .onConflictDoUpdate({
      target: [sourceVendorUsage.sourceId, sourceVendorUsage.day],
      set: {
        vendorBytes: sql`excluded.vendor_bytes`,
        importedAt: sql`excluded.imported_at`,
        importedBy: sql`excluded.imported_by`,
      },
    });
  return before;
}

/** A source's vendor figures for the UTC days in [from, to), oldest first. */
export async function listVendorUsage(
  db: Executor,
  params: { sourceId: string; from: Date; to: Date },
): Promise<VendorUsageRow[]> {
  return db
    .select()
    .from(sourceVendorUsage)
    .where(
      and(
        eq(sourceVendorUsage.sourceId, params.sourceId),
        sql`${sourceVendorUsage.day} >= ${params.from.toISOString()}::timestamptz and ${sourceVendorUsage.day} < ${params.to.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(sourceVendorUsage.day));
}
