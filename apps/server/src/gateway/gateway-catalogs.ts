import type { Executor } from '@bytegate/db';
import { listCatalogForGateway, type SourceRow } from '@bytegate/db/queries';
import { buildCatalog, type SourceCatalog } from '@bytegate/gateway';

/**
 * A catalog is read again at most once per this long for each place it lists: 10 s for 100,000 places,
 * so a network whose catalog keeps growing (traffic teaching it new places) costs the refresh a bounded
 * share of its time.
 */
const RELOAD_MS_PER_PLACE = 0.1;

interface Loaded {
  version: number;
  catalog: SourceCatalog;
  /** When it may be read again (a change before then waits). */
  nextReadAt: number;
}

/**
 * The wholesale networks' catalogs as the gateway routes by them. A catalog can list a hundred thousand
 * places, so it is not read every second with the sources: a source's `catalog_version` moves whenever
 * its catalog gains or loses a place (an import, a newly learned place), and only then is that one
 * catalog read again. Counting another exit at a known place moves nothing.
 *
 * The first read of a catalog is waited for (a gateway starts routing by it, and a first import is routed
 * by on the next refresh); a later one runs beside the refresh, which goes on with the catalog it has,
 * and the source takes the new one on the refresh after.
 */
export class CatalogCache {
  private readonly loaded = new Map<string, Loaded>();
  private readonly reading = new Map<string, Promise<void>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The catalog of a source (undefined until one is loaded, and for our own exits). */
  of(sourceId: string): SourceCatalog | undefined {
    return this.loaded.get(sourceId)?.catalog;
  }

  /** The version the source's catalog was loaded at; undefined before it is. */
  versionOf(sourceId: string): number | undefined {
    return this.loaded.get(sourceId)?.version;
  }

  /** Resolves once the catalogs being read now are in (tests, and a clean stop). */
  async settled(): Promise<void> {
    await Promise.all(this.reading.values());
  }

  /**
   * Reads the catalogs whose version moved since they were loaded, and forgets those of sources that are
   * gone. A version of 0 is a catalog never written: nothing to read.
   */
  async refresh(db: Executor, rows: readonly SourceRow[]): Promise<void> {
    const present = new Set<string>();
    const first: Array<Promise<void>> = [];
    for (const row of rows) {
      if (row.kind !== 'network') {
        continue;
      }
      present.add(row.id);
      const known = this.loaded.get(row.id);
      if (known?.version === row.catalogVersion || this.reading.has(row.id)) {
        continue;
      }
      if (row.catalogVersion === 0) {
        this.loaded.set(row.id, { version: 0, catalog: new Map(), nextReadAt: 0 });
        continue;
      }
      if (known && this.now() < known.nextReadAt) {
        continue;
      }
      const reading = this.read(db, row.id, row.catalogVersion);
      if (known && known.version !== 0) {
        // A failed read is tried again on a later refresh; the catalog held meanwhile stands.
        reading.catch(() => undefined);
      } else {
        first.push(reading);
      }
    }
    await Promise.all(first);
    for (const id of this.loaded.keys()) {
      if (!present.has(id)) {
        this.loaded.delete(id);
      }
    }
  }

  private read(db: Executor, sourceId: string, version: number): Promise<void> {
    const reading = (async () => {
      const places = await listCatalogForGateway(db, { sourceId });
      this.loaded.set(sourceId, {
        version,
        catalog: buildCatalog(places),
        nextReadAt: this.now() + places.length * RELOAD_MS_PER_PLACE,
      });
    })().finally(() => this.reading.delete(sourceId));
    this.reading.set(sourceId, reading);
    return reading;
  }
}
