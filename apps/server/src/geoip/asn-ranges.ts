import { readFile } from 'node:fs/promises';
import { isIPv4 } from 'node:net';

/**
 * Which autonomous system announces an address: the ranges of `@ip-location-db/asn` (RouteViews and
 * DB-IP, CC BY 4.0), read once into sorted typed arrays and searched by halves. No `@ip-location-db` ASN
 * database comes as an MMDB in the npm registry, so its CSV (start and end as numbers, ASN, name) is read
 * here: about 410,000 IPv4 and 100,000 IPv6 ranges, 0.5 s of reading and about 15 MB once loaded.
 */

export interface AsnAnswer {
  asn: number;
  name: string | null;
}

interface V4Table {
  starts: Uint32Array;
  ends: Uint32Array;
  asns: Uint32Array;
  names: Uint32Array;
}

interface V6Table {
  starts: bigint[];
  ends: bigint[];
  asns: Uint32Array;
  names: Uint32Array;
}

/** Lines read between yields to the event loop (the file is read in the jobs process). */
const LINES_PER_SLICE = 50_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `start,end,asn,name` with the name maybe quoted (`"Cloudflare, Inc."`). */
function splitLine(line: string): [string, string, string, string] | null {
  const first = line.indexOf(',');
  const second = line.indexOf(',', first + 1);
  const third = line.indexOf(',', second + 1);
  if (first < 0 || second < 0 || third < 0) {
    return null;
  }
  let name = line.slice(third + 1);
  if (name.startsWith('"') && name.endsWith('"')) {
    name = name.slice(1, -1).replace(/""/g, '"');
  }
  return [line.slice(0, first), line.slice(first + 1, second), line.slice(second + 1, third), name];
}

/** Reads one of the package's `-num.csv` files, handing each range to `add` (in the file's order: by start). */
async function readRanges(
  path: string,
  add: (start: string, end: string, asn: number, name: number) => void,
  names: { list: string[]; index: Map<string, number> },
): Promise<number> {
  const text = await readFile(path, 'utf8');
  let count = 0;
  let at = 0;
  while (at < text.length) {
    for (let slice = 0; slice < LINES_PER_SLICE && at < text.length; slice++) {
      const end = text.indexOf('\n', at);
      const line = text.slice(at, end < 0 ? undefined : end).replace(/\r$/, '');
      at = end < 0 ? text.length : end + 1;
      const parts = splitLine(line);
      const asn = parts ? Number(parts[2]) : Number.NaN;
      if (!parts || !Number.isInteger(asn) || asn <= 0) {
        continue;
      }
      let nameId = names.index.get(parts[3]);
      if (nameId === undefined) {
        nameId = names.list.length;
        names.list.push(parts[3]);
        names.index.set(parts[3], nameId);
      }
      add(parts[0], parts[1], asn, nameId);
      count += 1;
    }
    await nextTurn();
  }
  return count;
}

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

/** An IPv4 address as an unsigned 32-bit number. */
function ipv4Number(ip: string): number {
  return ip.split('.').reduce((total, part) => total * 256 + Number(part), 0);
}

/** An IPv6 address (already valid, maybe with an embedded IPv4 tail) as a 128-bit number. */
function ipv6Number(ip: string): bigint {
  let address = ip.replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail?.[1]) {
    const v4 = ipv4Number(tail[1]);
    address = `${address.slice(0, -tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups =
    rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((total, group) => (total << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

/** The ASN tables of one package folder, loaded on first use. */
export class AsnRanges {
  private v4: Promise<V4Table> | undefined;
  private v6: Promise<V6Table> | undefined;
  private readonly names = { list: [] as string[], index: new Map<string, number>() };

  constructor(private readonly folder: string) {}

  private loadV4(): Promise<V4Table> {
    this.v4 ??= (async () => {
      const starts: number[] = [];
      const ends: number[] = [];
      const asns: number[] = [];
      const names: number[] = [];
      await readRanges(
        `${this.folder}/asn-ipv4-num.csv`,
        (start, end, asn, name) => {
          starts.push(Number(start));
          ends.push(Number(end));
          asns.push(asn);
          names.push(name);
        },
        this.names,
      );
      return {
        starts: Uint32Array.from(starts),
        ends: Uint32Array.from(ends),
        asns: Uint32Array.from(asns),
        names: Uint32Array.from(names),
      };
    })();
    return this.v4;
  }

  private loadV6(): Promise<V6Table> {
    this.v6 ??= (async () => {
      const table = {
        starts: [] as bigint[],
        ends: [] as bigint[],
        asns: [] as number[],
        names: [] as number[],
      };
      await readRanges(
        `${this.folder}/asn-ipv6-num.csv`,
        (start, end, asn, name) => {
          table.starts.push(BigInt(start));
          table.ends.push(BigInt(end));
          table.asns.push(asn);
          table.names.push(name);
        },
        this.names,
      );
      return { ...table, asns: Uint32Array.from(table.asns), names: Uint32Array.from(table.names) };
    })();
    return this.v6;
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
    return { asn: table.asns[at] as number, name: this.names.list[table.names[at] as number] ?? null };
  }
}
