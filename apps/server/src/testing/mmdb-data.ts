/**
 * The data section of a MaxMind DB file (https://maxmind.github.io/MaxMind-DB/, "Output Data Section"),
 * for mmdb-writer.ts: each value is a control byte (type in the top three bits, size in the lower five,
 * extended types and long sizes in the bytes after it) and its payload, big-endian. A value written once
 * is written again as a pointer to its first copy (whole records, map keys, strings, maps and arrays), as
 * MaxMind's own writer does; pointers are offsets from the start of the data section.
 *
 * Node built-ins only, so that tests of any package can import it.
 */

/** A value given an explicit MaxMind DB type (plain values get one from their JavaScript type). */
export interface MmdbTyped {
  readonly mmdbType: 'uint16' | 'uint32' | 'uint64' | 'uint128' | 'int32' | 'double' | 'float';
  readonly value: number | bigint;
}

/**
 * What a record may hold. A JavaScript number is a uint32 when it is a whole number from 0 to 2^32 - 1,
 * an int32 when a negative whole one from -2^31, else a double; a bigint is a uint64 (uint128 above
 * 2^64 - 1); a Uint8Array is bytes.
 */
export type MmdbValue =
  | string
  | number
  | bigint
  | boolean
  | Uint8Array
  | MmdbTyped
  | MmdbValue[]
  | { [key: string]: MmdbValue };

export const mmdbUint16 = (value: number): MmdbTyped => ({ mmdbType: 'uint16', value });
export const mmdbUint32 = (value: number): MmdbTyped => ({ mmdbType: 'uint32', value });
export const mmdbUint64 = (value: bigint | number): MmdbTyped => ({
  mmdbType: 'uint64',
  value: BigInt(value),
});
export const mmdbDouble = (value: number): MmdbTyped => ({ mmdbType: 'double', value });
export const mmdbFloat = (value: number): MmdbTyped => ({ mmdbType: 'float', value });

const TYPE = {
  pointer: 1,
  utf8: 2,
  double: 3,
  bytes: 4,
  uint16: 5,
  uint32: 6,
  map: 7,
  int32: 8,
  uint64: 9,
  uint128: 10,
  array: 11,
  boolean: 14,
  float: 15,
} as const;

const isTyped = (value: MmdbValue): value is MmdbTyped =>
  typeof value === 'object' && value !== null && 'mmdbType' in value && !Array.isArray(value);

/** A bigint as big-endian bytes without leading zeros (none for 0). */
function unsignedBytes(value: bigint, maxBytes: number, what: string): Buffer {
  if (value < 0n || value >= 1n << BigInt(maxBytes * 8)) {
    throw new RangeError(`${what} ${value} is out of range`);
  }
  const bytes: number[] = [];
  for (let rest = value; rest > 0n; rest >>= 8n) {
    bytes.unshift(Number(rest & 0xffn));
  }
  return Buffer.from(bytes);
}

/** The control byte(s) of a value of `type` whose size field is `size`. */
function control(type: number, size: number): Buffer {
  const head: number[] = [];
  let sizeBits: number;
  const tail: number[] = [];
  if (size < 29) {
    sizeBits = size;
  } else if (size < 29 + 256) {
    sizeBits = 29;
    tail.push(size - 29);
  } else if (size < 285 + 65_536) {
    sizeBits = 30;
    tail.push((size - 285) >> 8, (size - 285) & 0xff);
  } else if (size < 65_821 + 16_777_216) {
    sizeBits = 31;
    const rest = size - 65_821;
    tail.push((rest >> 16) & 0xff, (rest >> 8) & 0xff, rest & 0xff);
  } else {
    throw new RangeError(`a value of ${size} bytes or entries is too large for a MaxMind DB`);
  }
  if (type <= 7) {
    head.push((type << 5) | sizeBits);
  } else {
    head.push(sizeBits, type - 7);
  }
  return Buffer.from([...head, ...tail]);
}

/** A pointer to `offset` in the data section, in the fewest bytes (2 to 5). */
export function encodePointer(offset: number): Buffer {
  if (offset < 2048) {
    return Buffer.from([(TYPE.pointer << 5) | (offset >> 8), offset & 0xff]);
  }
  if (offset < 2048 + 524_288) {
    const rest = offset - 2048;
    return Buffer.from([(TYPE.pointer << 5) | (1 << 3) | (rest >> 16), (rest >> 8) & 0xff, rest & 0xff]);
  }
  if (offset < 526_336 + 134_217_728) {
    const rest = offset - 526_336;
    return Buffer.from([
      (TYPE.pointer << 5) | (2 << 3) | (rest >> 24),
      (rest >> 16) & 0xff,
      (rest >> 8) & 0xff,
      rest & 0xff,
    ]);
  }
  const bytes = Buffer.alloc(5);
  bytes[0] = (TYPE.pointer << 5) | (3 << 3);
  bytes.writeUInt32BE(offset, 1);
  return bytes;
}

/** One value with no pointers inside it (the metadata section, which pointers may not leave). */
function encodeScalar(value: Exclude<MmdbValue, MmdbValue[] | { [key: string]: MmdbValue }>): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(TYPE.utf8, bytes.length), bytes]);
  }
  if (typeof value === 'boolean') {
    return control(TYPE.boolean, value ? 1 : 0);
  }
  if (value instanceof Uint8Array) {
    return Buffer.concat([control(TYPE.bytes, value.length), value]);
  }
  const typed: MmdbTyped =
    typeof value === 'bigint'
      ? { mmdbType: value < 1n << 64n ? 'uint64' : 'uint128', value }
      : typeof value === 'number'
        ? {
            mmdbType: !Number.isInteger(value)
              ? 'double'
              : value >= 0 && value <= 0xffff_ffff
                ? 'uint32'
                : value < 0 && value >= -0x8000_0000
                  ? 'int32'
                  : 'double',
            value,
          }
        : value;
  switch (typed.mmdbType) {
    case 'double': {
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleBE(Number(typed.value));
      return Buffer.concat([control(TYPE.double, 8), bytes]);
    }
    case 'float': {
      const bytes = Buffer.alloc(4);
      bytes.writeFloatBE(Number(typed.value));
      return Buffer.concat([control(TYPE.float, 4), bytes]);
    }
    case 'int32': {
      const number = Number(typed.value);
      if (!Number.isInteger(number) || number < -0x8000_0000 || number > 0x7fff_ffff) {
        throw new RangeError(`int32 ${number} is out of range`);
      }
      // Shorter than 4 bytes is always positive, so a negative number takes all four.
      const bytes = number < 0 ? Buffer.alloc(4) : unsignedBytes(BigInt(number), 4, 'int32');
      if (number < 0) {
        bytes.writeInt32BE(number);
      }
      return Buffer.concat([control(TYPE.int32, bytes.length), bytes]);
    }
    default: {
      const maxBytes = { uint16: 2, uint32: 4, uint64: 8, uint128: 16 }[typed.mmdbType];
      const bytes = unsignedBytes(BigInt(typed.value), maxBytes, typed.mmdbType);
      return Buffer.concat([control(TYPE[typed.mmdbType], bytes.length), bytes]);
    }
  }
}

/** Encodes `value` alone, pointers never used (the metadata section). */
export function encodeWithoutPointers(value: MmdbValue): Buffer {
  if (Array.isArray(value)) {
    return Buffer.concat([control(TYPE.array, value.length), ...value.map(encodeWithoutPointers)]);
  }
  if (typeof value === 'object' && !(value instanceof Uint8Array) && !isTyped(value)) {
    const entries = Object.entries(value);
    return Buffer.concat([
      control(TYPE.map, entries.length),
      ...entries.flatMap(([key, item]) => [encodeScalar(key), encodeWithoutPointers(item)]),
    ]);
  }
  return encodeScalar(value);
}

/** A key equal for equal values (and their types), to find a value written before. */
function identity(value: MmdbValue): string {
  if (Array.isArray(value)) {
    return `a[${value.map(identity).join(',')}]`;
  }
  if (typeof value === 'bigint') {
    return `n${value}`;
  }
  if (value instanceof Uint8Array) {
    return `b${Buffer.from(value).toString('hex')}`;
  }
  if (isTyped(value)) {
    return `t${value.mmdbType}:${value.value}`;
  }
  if (typeof value === 'object') {
    return `m{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${identity(item)}`)
      .join(',')}}`;
  }
  return `${typeof value}:${JSON.stringify(value)}`;
}

/** The data section as it is written: each distinct record (and repeated part of one) once. */
export class MmdbDataSection {
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private readonly written = new Map<string, number>();
  /** Values written as pointers to an earlier copy (records and their parts), for tests to count. */
  pointerCount = 0;

  /** The offset of `value` in the data section, written now unless an equal value was before. */
  add(value: MmdbValue): number {
    const known = this.written.get(identity(value));
    return known ?? this.write(value);
  }

  /** The section's bytes (after the tree and its 16-byte separator). */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private push(bytes: Buffer): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  /** Writes `value` at the current end; its parts written before become pointers. Returns its offset. */
  private write(value: MmdbValue): number {
    const offset = this.length;
    if (Array.isArray(value)) {
      this.push(control(TYPE.array, value.length));
      for (const item of value) {
        this.part(item);
      }
    } else if (typeof value === 'object' && !(value instanceof Uint8Array) && !isTyped(value)) {
      const entries = Object.entries(value);
      this.push(control(TYPE.map, entries.length));
      for (const [key, item] of entries) {
        this.part(key);
        this.part(item);
      }
    } else {
      this.push(encodeScalar(value));
    }
    this.written.set(identity(value), offset);
    return offset;
  }

  /** A part of a record: a pointer when it was written before and a pointer is shorter. */
  private part(value: MmdbValue): void {
    const isScalarNumber = typeof value === 'number' || typeof value === 'boolean' || isTyped(value);
    const known = isScalarNumber ? undefined : this.written.get(identity(value));
    if (known !== undefined) {
      const pointer = encodePointer(known);
      if (typeof value !== 'string' || Buffer.byteLength(value) + 1 > pointer.length) {
        this.push(pointer);
        this.pointerCount += 1;
        return;
      }
    }
    this.write(value);
  }
}
