import type { Executor } from '@bytegate/db';
import { listCatalogForGateway, type SourceRow } from '@bytegate/db/queries';
import { buildCatalog, type SourceCatalog } from '@bytegate/gateway';

/**
 * The wholesale networks' catalogs as the gateway routes by them. A catalog can list a hundred thousand
 * places, so it is not read every second with the sources: a source's `catalog_version` moves whenever
 * its catalog gains or loses a place (an import, a newly learned place), and only then is that one
 * catalog read again. Counting another exit at a known place moves nothing.
 */
export class CatalogCache {
  private readonly loaded = new Map<string, { version: number; catalog: SourceCatalog }>();

  /** The catalog of a source (empty until one is loaded, and for our own exits). */
  of(sourceId: string): SourceCatalog | undefined {
    return this.loaded.get(sourceId)?.catalog;
  }

  /** The version the source's catalog was loaded at; undefined before it is. */
  versionOf(sourceId: string): number | undefined {
    return this.loaded.get(sourceId)?.version;
  }

  /**
   * Reads the catalogs whose version moved since they were loaded (a new network's at once), and
   * forgets those of sources that are gone. A version of 0 is a catalog never written: nothing to read.
   */
  async refresh(db: Executor, rows: readonly SourceRow[]): Promise<void> {
    const present = new Set<string>();
    for (const row of rows) {
      if (row.kind !== 'network') {
        continue;
      }
      present.add(row.id);
      if (this.loaded.get(row.id)?.version === row.catalogVersion) {
        continue;
      }
      const places = row.catalogVersion === 0 ? [] : await listCatalogForGateway(db, { sourceId: row.id });
      this.loaded.set(row.id, { version: row.catalogVersion, catalog: buildCatalog(places) });
    }
    for (const id of this.loaded.keys()) {
      if (!present.has(id)) {
        this.loaded.delete(id);
      }
    }
  }
}
