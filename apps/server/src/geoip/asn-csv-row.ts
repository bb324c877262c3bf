import { isIPv4, isIPv6 } from 'node:net';
import { ipv4Number, ipv6Number } from './ip-numbers.ts';

/**
 * One row of an ASN CSV as `@ip-location-db/asn` writes it: `start,end,asn,name`, the range inclusive,
 * its ends either addresses (`1.0.0.0`, `2001:200::`) or numbers (`16777216`), the name maybe quoted
 * (`"Cloudflare, Inc."`). No header.
 */
export type AsnCsvRow =
  | { family: 4; start: number; end: number; asn: number; name: string }
  | { family: 6; start: bigint; end: bigint; asn: number; name: string };

/**
 * Which family rows written as numbers are: the package names its files `asn-ipv4-num.csv` and
 * `asn-ipv6-num.csv`; a file whose name says neither holds IPv4 up to 4294967295 and IPv6 above.
 */
export type NumberFamily = 4 | 6 | 'by-size';

export function numberFamilyOf(path: string): NumberFamily {
  const name = path.split(/[\\/]/).pop() ?? '';
  return /ipv6/i.test(name) ? 6 : /ipv4/i.test(name) ? 4 : 'by-size';
}

/** The four fields, or null when the line has fewer. */
function splitLine(line: string): [string, string, string, string] | null {
  const first = line.indexOf(',');
  const second = line.indexOf(',', first + 1);
  const third = line.indexOf(',', second + 1);
  if (first < 0 || second < 0 || third < 0) {
    return null;
  }
  let name = line.slice(third + 1).trim();
  if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) {
    name = name.slice(1, -1).replace(/""/g, '"');
  }
  return [
    line.slice(0, first).trim(),
    line.slice(first + 1, second).trim(),
    line.slice(second + 1, third).trim(),
    name,
  ];
}

const MAX_IPV4 = 0xffff_ffff;
const MAX_IPV6 = (1n << 128n) - 1n;

/** The row a line holds, or null for a line that is not one (blank, a header, a bad address). */
export function readAsnCsvRow(line: string, numberFamily: NumberFamily): AsnCsvRow | null {
  const parts = splitLine(line);
  if (!parts) {
    return null;
  }
  const [startText, endText, asnText, name] = parts;
  const asn = /^\d{1,10}$/.test(asnText) ? Number(asnText) : Number.NaN;
  if (!Number.isInteger(asn) || asn <= 0 || asn > MAX_IPV4) {
    return null;
  }
  if (DIGITS.test(startText) && DIGITS.test(endText)) {
    return numberRow(startText, endText, asn, name, numberFamily);
  }
  if (isIPv4(startText) && isIPv4(endText)) {
    const start = ipv4Number(startText);
    const end = ipv4Number(endText);
    return start <= end ? { family: 4, start, end, asn, name } : null;
  }
  if (isIPv6(startText) && isIPv6(endText)) {
    const start = ipv6Number(startText);
    const end = ipv6Number(endText);
    return start <= end ? { family: 6, start, end, asn, name } : null;
  }
  return null;
}

const DIGITS = /^\d{1,39}$/;

/** A row whose range is written as numbers (the package's `-num.csv` files, the ones read by default). */
function numberRow(
  startText: string,
  endText: string,
  asn: number,
  name: string,
  numberFamily: NumberFamily,
): AsnCsvRow | null {
  // Numbers of up to 15 digits are exact as doubles: IPv4 ends need no bigint.
  if (numberFamily !== 6 && endText.length <= 15) {
    const start = Number(startText);
    const end = Number(endText);
    if (end <= MAX_IPV4) {
      return start <= end ? { family: 4, start, end, asn, name } : null;
    }
  }
  const start = BigInt(startText);
  const end = BigInt(endText);
  if (start > end || end > MAX_IPV6 || (numberFamily === 4 && end > MAX_IPV4)) {
    return null;
  }
  return { family: 6, start, end, asn, name };
}
