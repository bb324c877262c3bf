import { writeFile } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import {
  encodeWithoutPointers,
  MmdbDataSection,
  type MmdbValue,
  mmdbUint16,
  mmdbUint64,
} from './mmdb-data.ts';

/**
 * Writes real MaxMind DB files (format 2.0, https://maxmind.github.io/MaxMind-DB/) for tests: the binary
 * search tree of the networks given, the 16 zero bytes, the data section (mmdb-data.ts: each distinct
 * record once, repeated parts as pointers), then "\xAB\xCD\xEFMaxMind.com" and the metadata. `maxmind`
 * (and any other reader) opens them as it opens GeoLite2.
 *
 * A more specific network wins over a wider one that holds it, whatever the order they are given in. An
 * IPv6 tree holds IPv4 networks where MaxMind puts them, at ::a.b.c.d (so `maxmind` finds an IPv4 address
 * there), with ::ffff:0:0/96 pointing at the same subtree (so does ::ffff:a.b.c.d), as in GeoLite2.
 *
 * Node built-ins only, so that tests of any package can import it.
 */

export type { MmdbTyped, MmdbValue } from './mmdb-data.ts';
export { mmdbDouble, mmdbFloat, mmdbUint16, mmdbUint32, mmdbUint64 } from './mmdb-data.ts';

export interface MmdbNetwork {
  /** `203.0.113.0/24`, `2001:db8::/32`, or a bare address (a /32 or /128). */
  network: string;
  data: MmdbValue;
}

export interface MmdbOptions {
  /** 4: an IPv4-only tree (IPv6 networks refused); 6: IPv6 with IPv4 mapped. */
  ipVersion: 4 | 6;
  /** `GeoLite2-City`, `GeoLite2-ASN`, or a name of your own. */
  databaseType: string;
  /** Bits per record: 24 (up to 16,777,215 nodes and data), 28 or 32. Default 24. */
  recordSize?: 24 | 28 | 32;
  languages?: string[];
  description?: Record<string, string>;
  /** Seconds since 1970; default now. */
  buildEpoch?: number;
}

const METADATA_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');
const DATA_SEPARATOR_BYTES = 16;

/** An address as its 4 or 16 bytes. */
export function addressBytes(address: string): Uint8Array {
  if (isIPv4(address)) {
    return Uint8Array.from(address.split('.').map(Number));
  }
  if (!isIPv6(address)) {
    throw new Error(`${address} is not an IP address`);
  }
  let text = address.replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups =
    rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const value = Number.parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

const bitAt = (bytes: Uint8Array, bit: number) => ((bytes[bit >> 3] as number) >> (7 - (bit & 7))) & 1;

/** A network as its address bytes and prefix length, host bits checked to be zero. */
export function parseNetwork(network: string): { bytes: Uint8Array; prefixLength: number } {
  const [address = '', prefix, extra] = network.trim().split('/');
  if (extra !== undefined) {
    throw new Error(`${network} is not a network (one address and one /prefix)`);
  }
  const bytes = addressBytes(address);
  const bits = bytes.length * 8;
  const prefixLength = prefix === undefined ? bits : Number(prefix);
  if (!/^\d+$/.test(prefix ?? String(bits)) || prefixLength < 1 || prefixLength > bits) {
    throw new Error(`${network}: the prefix must be from /1 to /${bits}`);
  }
  for (let bit = prefixLength; bit < bits; bit++) {
    if (bitAt(bytes, bit) === 1) {
      throw new Error(
        `${network} has host bits set (the network of ${address}/${prefixLength} starts lower)`,
      );
    }
  }
  return { bytes, prefixLength };
}

interface TreeNode {
  kind: 'node';
  children: [Slot, Slot];
}
type Slot = TreeNode | { kind: 'data'; offset: number } | null;

/** Walks the `prefixLength` first bits of `bytes` from `root`, splitting data into nodes on the way; sets the slot there. */
function setSlot(root: TreeNode, bytes: Uint8Array, prefixLength: number, value: Slot): void {
  let node = root;
  for (let depth = 0; depth < prefixLength - 1; depth++) {
    const bit = bitAt(bytes, depth);
    let child = node.children[bit] as Slot;
    if (child === null || child.kind === 'data') {
      // A wider network's record (or nothing) goes on below on both sides of the split.
      child = { kind: 'node', children: [child, child] };
      node.children[bit] = child;
    }
    node = child;
  }
  node.children[bitAt(bytes, prefixLength - 1)] = value;
}

/** The slot `prefixLength` bits down (null when the path ends in data or nothing before). */
function slotAt(root: TreeNode, bytes: Uint8Array, prefixLength: number): Slot {
  let slot: Slot = root;
  for (let depth = 0; depth < prefixLength; depth++) {
    if (slot === null || slot.kind !== 'node') {
      return slot;
    }
    slot = slot.children[bitAt(bytes, depth)] as Slot;
  }
  return slot;
}

const IPV4_MAPPED_PREFIX = addressBytes('::ffff:0:0');

/** The networks as the tree's insertions: IPv4 moved to ::a.b.c.d in an IPv6 tree, widest first. */
function insertions(networks: MmdbNetwork[], ipVersion: 4 | 6) {
  const seen = new Set<string>();
  const list = networks.map(({ network, data }) => {
    const parsed = parseNetwork(network);
    let { bytes, prefixLength } = parsed;
    if (bytes.length === 16 && ipVersion === 4) {
      throw new Error(`${network} is an IPv6 network, and this database is IPv4 only (ipVersion: 4)`);
    }
    const isIn96 = (prefix: Uint8Array) =>
      bytes.length === 16 &&
      prefixLength >= 96 &&
      Buffer.from(bytes.subarray(0, 12)).equals(prefix.subarray(0, 12));
    if (isIn96(new Uint8Array(16))) {
      throw new Error(`${network} is in ::/96, where the IPv4 networks go: write it as IPv4`);
    }
    if (ipVersion === 6 && isIn96(IPV4_MAPPED_PREFIX)) {
      throw new Error(`${network} is in ::ffff:0:0/96, which points at the IPv4 networks: write it as IPv4`);
    }
    if (bytes.length === 4 && ipVersion === 6) {
      bytes = Uint8Array.from([...new Uint8Array(12), ...bytes]);
      prefixLength += 96;
    }
    const key = `${Buffer.from(bytes).toString('hex')}/${prefixLength}`;
    if (seen.has(key)) {
      throw new Error(`${network} is given twice`);
    }
    seen.add(key);
    return { bytes, prefixLength, data };
  });
  return list.sort((a, b) => a.prefixLength - b.prefixLength);
}

/** Numbers the nodes breadth-first from the root (0); a node reached twice (the IPv4 alias) once. */
function numberNodes(root: TreeNode): TreeNode[] {
  const order: TreeNode[] = [root];
  const seen = new Set<TreeNode>([root]);
  for (let at = 0; at < order.length; at++) {
    for (const child of (order[at] as TreeNode).children) {
      if (child?.kind === 'node' && !seen.has(child)) {
        seen.add(child);
        order.push(child);
      }
    }
  }
  return order;
}

function writeTree(nodes: TreeNode[], recordSize: 24 | 28 | 32): Buffer {
  const numbers = new Map(nodes.map((node, index) => [node, index]));
  const nodeCount = nodes.length;
  const recordValue = (slot: Slot): number => {
    const value =
      slot === null
        ? nodeCount
        : slot.kind === 'node'
          ? (numbers.get(slot) as number)
          : nodeCount + DATA_SEPARATOR_BYTES + slot.offset;
    if (value >= 2 ** recordSize) {
      throw new RangeError(`the tree and data need records over ${recordSize} bits: use recordSize 28 or 32`);
    }
    return value;
  };
  const nodeBytes = recordSize / 4;
  const tree = Buffer.alloc(nodeCount * nodeBytes);
  nodes.forEach((node, index) => {
    const left = recordValue(node.children[0]);
    const right = recordValue(node.children[1]);
    const at = index * nodeBytes;
    if (recordSize === 24) {
      tree.writeUIntBE(left, at, 3);
      tree.writeUIntBE(right, at + 3, 3);
    } else if (recordSize === 28) {
      tree.writeUIntBE(left & 0xff_ffff, at, 3);
      tree[at + 3] = ((left >>> 24) << 4) | (right >>> 24);
      tree.writeUIntBE(right & 0xff_ffff, at + 4, 3);
    } else {
      tree.writeUInt32BE(left, at);
      tree.writeUInt32BE(right, at + 4);
    }
  });
  return tree;
}

/** The whole file. */
export function buildMmdb(networks: MmdbNetwork[], options: MmdbOptions): Buffer {
  const recordSize = options.recordSize ?? 24;
  const data = new MmdbDataSection();
  const root: TreeNode = { kind: 'node', children: [null, null] };
  for (const { bytes, prefixLength, data: record } of insertions(networks, options.ipVersion)) {
    setSlot(root, bytes, prefixLength, { kind: 'data', offset: data.add(record) });
  }
  const ipv4Subtree = options.ipVersion === 6 ? slotAt(root, new Uint8Array(16), 96) : null;
  if (ipv4Subtree !== null) {
    setSlot(root, IPV4_MAPPED_PREFIX, 96, ipv4Subtree);
  }
  const nodes = numberNodes(root);
  const metadata = encodeWithoutPointers({
    binary_format_major_version: mmdbUint16(2),
    binary_format_minor_version: mmdbUint16(0),
    build_epoch: mmdbUint64(options.buildEpoch ?? Math.floor(Date.now() / 1000)),
    database_type: options.databaseType,
    description: options.description ?? {},
    ip_version: mmdbUint16(options.ipVersion),
    languages: options.languages ?? [],
    node_count: nodes.length,
    record_size: mmdbUint16(recordSize),
  });
  return Buffer.concat([
    writeTree(nodes, recordSize),
    Buffer.alloc(DATA_SEPARATOR_BYTES),
    data.bytes(),
    METADATA_MARKER,
    metadata,
  ]);
}

/** Writes the file at `path` (see buildMmdb). */
export async function writeMmdb(path: string, networks: MmdbNetwork[], options: MmdbOptions): Promise<void> {
  await writeFile(path, buildMmdb(networks, options));
}
