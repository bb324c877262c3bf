import {
  CATALOG_PROBLEMS_LISTED,
  type CatalogFormat,
  type ImportCatalogResponse,
} from '@bytegate/contracts/admin-catalog';
import {
  bumpCatalogVersion,
  countCatalog,
  dropUnlistedCatalogPlaces,
  getSource,
  insertAuditEntry,
  listCatalogPlaces,
  type SourceRow,
} from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { checkMayChangeInventory } from '../inventory/inventory-access.ts';
import { readCatalogFile } from './catalog-file.ts';
import { findSource, sourceNotFound } from './sources.ts';

/** A source named on the command line (name or id) or by the console (`{ id }`). */
export async function resolveSource(
  ctx: ServiceContext,
  source: string | { id: string },
): Promise<SourceRow> {
  if (typeof source === 'string') {
    return findSource(ctx, source);
  }
  const row = await getSource(ctx.db, { id: source.id });
  if (!row) {
    throw sourceNotFound();
  }
  return row;
}

/** Only a wholesale network has a catalog: our own exits' places are the exits' own. */
export function checkHasCatalog(row: SourceRow): void {
  if (row.kind !== 'network') {
    throw new DomainError(
      'VALIDATION_FAILED',
      `${row.name} is our own exits: their places are the exits' own, so it has no catalog to import`,
    );
  }
}

/**
 * Imports a vendor's list of the places its network serves into the source's catalog, all or nothing:
 * one bad line refuses the file, with every problem by line (the first 100 listed). Without `replace` the
 * file's places are added to the catalog; with it, the places an earlier import added and this file no
 * longer lists are dropped, unless traffic saw them (they stay, as learned). One transaction, one audit
 * entry; the gateways route by the new catalog on their next refresh (the catalog's version moves).
 */
export async function importCatalog(
  ctx: ServiceContext,
  props: {
    source: string | { id: string };
    content: string;
    format: CatalogFormat;
    replace: boolean;
    reason?: string | undefined;
    actor: StaffActor;
  },
): Promise<ImportCatalogResponse> {
  checkMayChangeInventory(props.actor, 'sources');
  const known = await resolveSource(ctx, props.source);
  checkHasCatalog(known);
  let file: ReturnType<typeof readCatalogFile>;
  try {
    file = readCatalogFile(props.content, props.format);
  } catch (error) {
    throw new DomainError('VALIDATION_FAILED', `Nothing was imported: ${(error as Error).message}`);
  }
  if (file.problems.length > 0) {
    const count = file.problems.length;
    const lines =
      count === 1 ? '1 line has a problem' : `${count.toLocaleString('en-US')} lines have problems`;
    const listed =
      count > CATALOG_PROBLEMS_LISTED ? ` (the first ${CATALOG_PROBLEMS_LISTED} are listed)` : '';
    throw new DomainError('VALIDATION_FAILED', `Nothing was imported: ${lines}${listed}`, {
      problems: file.problems.slice(0, CATALOG_PROBLEMS_LISTED),
    });
  }
  if (file.places.length === 0) {
    throw new DomainError('VALIDATION_FAILED', 'Nothing was imported: the file lists no places');
  }
  const at = new Date();
  return ctx.db.transaction(async (tx) => {
    // One import of a catalog at a time, and none beside a change of the source.
    const source = await getSource(tx, { id: known.id, isLocked: true });
    if (!source) {
      throw sourceNotFound();
    }
    const before = await countCatalog(tx, { sourceId: source.id });
    const { added, alreadyListed } = await listCatalogPlaces(tx, {
      sourceId: source.id,
      places: file.places,
      at,
    });
    const dropped = props.replace ? await dropUnlistedCatalogPlaces(tx, { sourceId: source.id, at }) : 0;
    const after = await countCatalog(tx, { sourceId: source.id });
    if (added > 0 || dropped > 0) {
      await bumpCatalogVersion(tx, { sourceId: source.id });
    }
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'source.catalog.import',
      targetType: 'source',
      targetId: source.id,
      before,
      after: { ...after, format: props.format, replace: props.replace, read: file.read, added, dropped },
      reason: props.reason ?? null,
    });
    return { read: file.read, added, alreadyListed, dropped, ...after };
  });
}
