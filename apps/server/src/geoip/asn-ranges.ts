import { readFile } from 'node:fs/promises';
import { isIPv4 } from 'node:net';
import { type NumberFamily, numberFamilyOf, readAsnCsvRow } from './asn-csv-row.ts';
import { ipv4Number, ipv6Number } from './ip-numbers.ts';

/**
 * Which autonomous system announces an address, from ASN CSVs as `@ip-location-db/asn` writes them
 * (asn-csv-row.ts): read once into sorted typed arrays and searched by halves. The package's own ranges
 * (RouteViews and DB-IP, CC BY 4.0; no `@ip-location-db` ASN database comes as an MMDB in the npm
 * registry) are its `-num.csv` files: about 410,000 IPv4 and 100,000 IPv6 ranges, 0.5 s of reading and
 * about 15 MB once loaded. An operator's CSV (GEOIP_ASN_DB) may hold both families, in any order; its
 * ranges must not overlap (an address is looked for in the range starting nearest below it).
 */

export interface AsnAnswer {
  asn: number;
  name: string | null;
}

interface Table<T extends number | bigint> {
  starts: ArrayLike<T>;
  ends: ArrayLike<T>;
  asns: Uint32Array;
  names: Uint32Array;
}

interface Rows<T> {
  starts: T[];
  ends: T[];
  asns: number[];
  names: number[];
}

interface FileRows {
  v4: Rows<number>;
  v6: Rows<bigint>;
}

/** Lines read between yields to the event loop (the files are read in busy processes). */
const LINES_PER_SLICE = 50_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const emptyRows = <T>(): Rows<T> => ({ starts: [], ends: [], asns: [], names: [] });

/** The last index whose start is at or below `value` (starts ascending); -1 when none. */
function lastAtOrBelow<T extends number | bigint>(starts: ArrayLike<T>, value: T): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((starts[middle] as T) <= value) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** The rows of several files as one table sorted by start (the package's files come sorted). */
function sortedRows<T extends number | bigint>(parts: Rows<T>[]): Rows<T> {
  const all: Rows<T> =
    parts.length === 1
      ? (parts[0] as Rows<T>)
      : {
          starts: ([] as T[]).concat(...parts.map((part) => part.starts)),
          ends: ([] as T[]).concat(...parts.map((part) => part.ends)),
          asns: ([] as number[]).concat(...parts.map((part) => part.asns)),
          names: ([] as number[]).concat(...parts.map((part) => part.names)),
        };
  const isSorted = all.starts.every((start, at) => at === 0 || (all.starts[at - 1] as T) <= start);
  if (isSorted) {
    return all;
  }
  const order = all.starts.map((_, at) => at);
  order.sort((a, b) => {
    const left = all.starts[a] as T;
    const right = all.starts[b] as T;
    return left < right ? -1 : left > right ? 1 : 0;
  });
  return {
    starts: order.map((at) => all.starts[at] as T),
    ends: order.map((at) => all.ends[at] as T),
    asns: order.map((at) => all.asns[at] as number),
    names: order.map((at) => all.names[at] as number),
  };
}

/** The ASN ranges of some CSV files, each read on the first lookup of a family it may hold. */
export class AsnRanges {
  private readonly files = new Map<string, Promise<FileRows>>();
  private v4: Promise<Table<number>> | undefined;
  private v6: Promise<Table<bigint>> | undefined;
  private readonly names = { list: [] as string[], index: new Map<string, number>() };

  /** `paths`: files named `*ipv4*` hold only IPv4, `*ipv6*` only IPv6, any other both. */
  constructor(private readonly paths: string[]) {}

  private readRows(path: string): Promise<FileRows> {
    let reading = this.files.get(path);
    if (!reading) {
      reading = this.read(path, numberFamilyOf(path));
      // A failed read is tried again on the next lookup.
      reading.catch(() => this.files.delete(path));
      this.files.set(path, reading);
    }
    return reading;
  }

  private async read(path: string, numberFamily: NumberFamily): Promise<FileRows> {
    const text = await readFile(path, 'utf8');
    const rows: FileRows = { v4: emptyRows(), v6: emptyRows() };
    let at = 0;
    while (at < text.length) {
      for (let slice = 0; slice < LINES_PER_SLICE && at < text.length; slice++) {
        const end = text.indexOf('\n', at);
        const line = text.slice(at, end < 0 ? undefined : end).replace(/\r$/, '');
        at = end < 0 ? text.length : end + 1;
        const row = readAsnCsvRow(line, numberFamily);
        if (!row) {
          continue;
        }
        let nameId = this.names.index.get(row.name);
        if (nameId === undefined) {
          nameId = this.names.list.length;
          this.names.list.push(row.name);
          this.names.index.set(row.name, nameId);
        }
        const family: Rows<number | bigint> = row.family === 4 ? rows.v4 : rows.v6;
        family.starts.push(row.start);
        family.ends.push(row.end);
        family.asns.push(row.asn);
        family.names.push(nameId);
      }
      await nextTurn();
    }
    return rows;
  }

  /** The files that may hold `family`'s ranges. */
  private pathsOf(family: 4 | 6): string[] {
    return this.paths.filter((path) => {
      const holds = numberFamilyOf(path);
      return holds === 'by-size' || holds === family;
    });
  }

  private loadV4(): Promise<Table<number>> {
    this.v4 ??= this.retriedOnFailure(
      (async () => {
        const files = await Promise.all(this.pathsOf(4).map((path) => this.readRows(path)));
        this.forgetRows(4);
        const rows = sortedRows(files.map((file) => file.v4));
        return {
          starts: Uint32Array.from(rows.starts),
          ends: Uint32Array.from(rows.ends),
          asns: Uint32Array.from(rows.asns),
          names: Uint32Array.from(rows.names),
        };
      })(),
      () => {
        this.v4 = undefined;
      },
    );
    return this.v4;
  }

  private loadV6(): Promise<Table<bigint>> {
    this.v6 ??= this.retriedOnFailure(
      (async () => {
        const files = await Promise.all(this.pathsOf(6).map((path) => this.readRows(path)));
        this.forgetRows(6);
        const rows = sortedRows(files.map((file) => file.v6));
        return { ...rows, asns: Uint32Array.from(rows.asns), names: Uint32Array.from(rows.names) };
      })(),
      () => {
        this.v6 = undefined;
      },
    );
    return this.v6;
  }

  /**
   * Lets go of the rows read for `family`'s table (they are tens of MB as plain arrays) once no other
   * table needs them: a file of both families is kept until the other family's table has them too.
   */
  private forgetRows(family: 4 | 6): void {
    const otherStarted = family === 4 ? this.v6 !== undefined : this.v4 !== undefined;
    for (const path of this.pathsOf(family)) {
      if (numberFamilyOf(path) === family || otherStarted) {
        this.files.delete(path);
      }
    }
  }

  /** `loading`, forgotten (by `forget`) when it fails, so that the next lookup reads the files again. */
  private retriedOnFailure<T>(loading: Promise<T>, forget: () => void): Promise<T> {
    loading.catch(forget);
    return loading;
  }

  /** The ASN announcing a valid IP address, or null when no range holds it. */
  async lookup(ip: string): Promise<AsnAnswer | null> {
    if (isIPv4(ip)) {
      const table = await this.loadV4();
      const value = ipv4Number(ip);
      const at = lastAtOrBelow(table.starts, value);
      return at >= 0 && value <= (table.ends[at] as number) ? this.answer(table, at) : null;
    }
    const table = await this.loadV6();
    const value = ipv6Number(ip);
    const at = lastAtOrBelow(table.starts, value);
    return at >= 0 && value <= (table.ends[at] as bigint) ? this.answer(table, at) : null;
  }

  private answer(table: { asns: Uint32Array; names: Uint32Array }, at: number): AsnAnswer {
    const name = this.names.list[table.names[at] as number];
    return { asn: table.asns[at] as number, name: name ? name : null };
  }
}
