import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { numberFamilyOf, readAsnCsvRow } from './asn-csv-row.ts';

/**
 * What an operator's GeoIP file is, checked when the settings are read (GEOIP_CITY_DB, GEOIP_ASN_DB),
 * without loading it: a MaxMind DB (its metadata marker within the last 128 KiB, with the keys every
 * MaxMind DB has), or for ASNs a CSV whose first rows read as `@ip-location-db/asn`'s. Anything else
 * stops start-up with the reason.
 */

export type GeoipDatabaseKind = 'city' | 'asn';
export type GeoipDatabaseFormat = 'mmdb' | 'csv';

/** A GeoIP file that cannot be used; the message names the file and why, not the setting. */
export class GeoipDatabaseError extends Error {}

const METADATA_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');
/** The spec's bound on the metadata section, marker included. */
const METADATA_MAX_BYTES = 128 * 1024;
/** The first bytes of a CSV looked at. */
const CSV_HEAD_BYTES = 64 * 1024;
/** Rows at the top of a CSV that may fail to read (a header, comments) before it is judged not one. */
const CSV_ROWS_TRIED = 5;

function readBytes(path: string, position: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, bytes, 0, length, position);
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function isMaxMindDb(path: string, size: number): boolean {
  const tailBytes = Math.min(size, METADATA_MAX_BYTES);
  const tail = readBytes(path, size - tailBytes, tailBytes);
  const at = tail.lastIndexOf(METADATA_MARKER);
  if (at < 0) {
    return false;
  }
  const metadata = tail.subarray(at + METADATA_MARKER.length).toString('latin1');
  return ['node_count', 'record_size', 'ip_version'].every((key) => metadata.includes(key));
}

function isAsnCsv(path: string, size: number): boolean {
  const head = readBytes(path, 0, Math.min(size, CSV_HEAD_BYTES)).toString('utf8');
  // The last line read may be cut short unless the whole file was read.
  const lines = head
    .split('\n')
    .slice(0, size > CSV_HEAD_BYTES ? -1 : undefined)
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '');
  const family = numberFamilyOf(path);
  return lines.slice(0, CSV_ROWS_TRIED).some((line) => readAsnCsvRow(line, family) !== null);
}

/**
 * The format of the GeoIP file at `path` (an absolute path or one from the working directory), or a
 * GeoipDatabaseError: it does not exist, is not a file, cannot be read, or is not a database of `kind`.
 */
export function checkGeoipDatabaseFile(path: string, kind: GeoipDatabaseKind): GeoipDatabaseFormat {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) {
      throw new GeoipDatabaseError(`${path} is not a file`);
    }
    size = stat.size;
    if (isMaxMindDb(path, size)) {
      return 'mmdb';
    }
    if (kind === 'asn' && isAsnCsv(path, size)) {
      return 'csv';
    }
  } catch (error) {
    if (error instanceof GeoipDatabaseError) {
      throw error;
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw new GeoipDatabaseError(
      code === 'ENOENT' ? `${path} does not exist` : `${path} cannot be read (${(error as Error).message})`,
    );
  }
  throw new GeoipDatabaseError(
    kind === 'city'
      ? `${path} is not a MaxMind DB (.mmdb): a GeoIP2 or GeoLite2 City database, or @ip-location-db's city mmdb`
      : `${path} is neither a MaxMind DB (.mmdb, such as GeoLite2-ASN) nor a CSV of start,end,asn,name rows as @ip-location-db/asn writes them`,
  );
}
