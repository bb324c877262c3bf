// The two values of a vendor's usage export a reconciliation reads, pure: a day (written the ways vendors'
// dashboards write it) and an amount of traffic (a number with a unit), turned into whole bytes exactly.

/**
 * How KB, MB, GB and TB are read: `decimal` (the default) as 1000-based (SI: 1 GB = 10^9 bytes), `binary`
 * as 1024-based, for a vendor that writes GB and means GiB. KiB, MiB, GiB and TiB are always 1024-based.
 */
export type ByteUnits = 'decimal' | 'binary';

/** How a date like 03/04/2025 is read: month first (March 4) or day first (3 April). */
export type DateOrder = 'mdy' | 'dmy';

const UNIT_POWERS: Record<string, number> = { k: 1, m: 2, g: 3, t: 4 };

/**
 * The bytes in one unit, by its name (case-insensitive: b, byte, bytes, kb, mb, gb, tb, kib, mib, gib,
 * tib); undefined for a name that is no unit.
 */
export function bytesPerUnit(name: string, units: ByteUnits): bigint | undefined {
  const unit = name.toLowerCase();
  if (unit === 'b' || unit === 'byte' || unit === 'bytes') {
    return 1n;
  }
  const match = /^([kmgt])(i?)b$/.exec(unit);
  if (!match) {
    return undefined;
  }
  const power = BigInt(UNIT_POWERS[match[1] ?? ''] ?? 0);
  return match[2] === 'i' || units === 'binary' ? 1024n ** power : 1000n ** power;
}

/**
 * The decimal mark of a file's amounts: the point (1,234.5) or the comma (1.234,5, as European exports
 * write it). The other sign, a space or a no-break space may group thousands.
 */
export type DecimalMark = 'point' | 'comma';

/** A number, maybe grouped, then maybe a unit: `1.5 GB`, `1 234,5`, `1,536MB`. */
const AMOUNT = /^(\d[\d.,\s\u00a0\u202f]*?)\s*([a-z]+)?$/i;
/**
 * Each mark, and a whole part grouped in thousands beside it: one to three digits, then groups of three,
 * all split by the same sign (the other mark, a space, a no-break or a narrow no-break space).
 */
const MARKS: Record<DecimalMark, { mark: string; grouped: RegExp }> = {
  point: { mark: '.', grouped: /^\d{1,3}([, \u00a0\u202f])\d{3}(?:\1\d{3})*$/ },
  comma: { mark: ',', grouped: /^\d{1,3}([. \u00a0\u202f])\d{3}(?:\1\d{3})*$/ },
};

/**
 * The decimal mark a number shows by itself, `ambiguous` when it could be either, undefined when it
 * has no point or comma at all. `1,5` `1,23` `1234,5` `0,123` `1.234,5` and `1.234.567` show a comma
 * (a thousands group has three digits, never follows a leading 0 or four digits, and a decimal mark comes
 * once and last); their mirror images show a point. `1,234` and `1.234` alone are ambiguous: a thousand
 * and some, or one and a fraction.
 */
export function decimalMarkOf(number: string): DecimalMark | 'ambiguous' | undefined {
  const commas = number.split(',').length - 1;
  const points = number.split('.').length - 1;
  if (commas > 0 && points > 0) {
    return number.lastIndexOf(',') > number.lastIndexOf('.') ? 'comma' : 'point';
  }
  if (commas + points === 0) {
    return undefined;
  }
  const sign = commas > 0 ? ',' : '.';
  const shown: DecimalMark = sign === ',' ? 'comma' : 'point';
  const other: DecimalMark = sign === ',' ? 'point' : 'comma';
  if (commas + points > 1) {
    return other; // the sign repeats: it groups thousands
  }
  const [whole = '', fraction = ''] = number.replace(/[\s\u00a0\u202f]/g, '').split(sign);
  return fraction.length !== 3 || whole.startsWith('0') || whole.length > 3 ? shown : 'ambiguous';
}

/** The number part of an amount's cell (undefined when the cell is no amount), as decimalMarkOf reads it. */
export function numberOf(cell: string): string | undefined {
  return AMOUNT.exec(cell.trim())?.[1];
}

/** `number` in the digits of its whole part and its fraction, if it is written with `decimalMark`. */
function digitsOf(number: string, decimalMark: DecimalMark): { whole: string; fraction: string } | undefined {
  const { mark, grouped } = MARKS[decimalMark];
  const [whole = '', fraction, extra] = number.split(mark);
  if (extra !== undefined || (fraction !== undefined && !/^\d+$/.test(fraction))) {
    return undefined;
  }
  if (!/^\d+$/.test(whole) && !grouped.test(whole)) {
    return undefined;
  }
  return { whole: whole.replace(/\D/g, ''), fraction: fraction ?? '' };
}

/** An amount of traffic read: whole bytes, or why it cannot be read. */
export type Amount = { bytes: number } | { problem: string };

/** How an operator says which decimal mark a file's amounts use. */
export const MARK_OPTION = 'say which with --decimal-mark point or comma (Decimal mark in the console)';

/**
 * `1.5 GB`, `1,536 MB`, `1536`, `1,5 GB`, with a unit of its own or else `unit` (the column's): whole
 * bytes, rounded half up from the exact value (1.0000000005 GB is 1,000,000,001 bytes, never a float's
 * guess). `decimalMark` is the file's (readVendorUsageCsv settles it); without one, a number is read by
 * the mark it shows itself, and one that could be read both ways (1,234) is refused, never guessed.
 */
export function parseAmount(
  cell: string,
  unit: bigint | undefined,
  units: ByteUnits,
  decimalMark?: DecimalMark,
): Amount {
  const text = cell.trim();
  if (text === '') {
    return { problem: 'no traffic' };
  }
  if (text.startsWith('-')) {
    return { problem: `traffic must not be negative (${text})` };
  }
  const match = AMOUNT.exec(text);
  if (!match) {
    return { problem: `"${text}" is not an amount of traffic, such as 1.25 GB or 1342177280` };
  }
  const [, number = '', ownUnit] = match;
  const shown = decimalMarkOf(number);
  if (decimalMark === undefined && shown === 'ambiguous') {
    return {
      problem: `"${number}" could be ${number.replace(/[.,]/, '')} or ${number.replace(',', '.')} (a thousands separator or a decimal mark): ${MARK_OPTION}`,
    };
  }
  const digits = digitsOf(number, decimalMark ?? (shown === 'comma' ? 'comma' : 'point'));
  if (!digits) {
    return {
      problem:
        decimalMark === undefined
          ? `"${number}" is not a number, such as 1234.5, 1,234.5 or 1.234,5`
          : `"${number}" is not a number with a decimal ${decimalMark} (${decimalMark === 'point' ? '1,234.5' : '1.234,5'})`,
    };
  }
  const perUnit = ownUnit ? bytesPerUnit(ownUnit, units) : unit;
  if (perUnit === undefined) {
    return ownUnit
      ? { problem: `"${ownUnit}" is not a unit: use B, KB, MB, GB, TB (or KiB, MiB, GiB, TiB)` }
      : {
          problem: `${text} has no unit: write it as ${text} GB, or name the unit in the column (Traffic (GB))`,
        };
  }
  const { whole, fraction } = digits;
  if (perUnit === 1n && /[1-9]/.test(fraction)) {
    return { problem: `${text} is not a whole number of bytes` };
  }
  if (fraction.length > 12) {
    return { problem: `${text} has more than 12 decimals` };
  }
  const scale = 10n ** BigInt(fraction.length);
  const exact = BigInt(whole + fraction) * perUnit;
  const rounded = exact / scale + (2n * (exact % scale) >= scale ? 1n : 0n);
  if (rounded > BigInt(Number.MAX_SAFE_INTEGER)) {
    return { problem: `${text} is more traffic than a day can hold` };
  }
  return { bytes: Number(rounded) };
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** A day read from a cell: its date (YYYY-MM-DD), a day-or-month-first date to settle, or a problem. */
export type DayCell =
  | { date: string }
  | { ambiguous: { first: number; second: number; year: number } }
  | { problem: string };

/** YYYY-MM-DD if it is a real day of the calendar. */
function calendarDay(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return date.toISOString().slice(0, 10);
}

/** 1 to 12 for a month's name or its abbreviation of three letters or more (Mar, Sept, March). */
const monthOf = (name: string) => {
  const index = MONTHS.findIndex((month) => month.startsWith(name.toLowerCase()));
  return name.length < 3 || index < 0 ? undefined : index + 1;
};

/**
 * A day as vendors write it, a time after it ignored (the row counts on the calendar day it names):
 * 2025-03-01, 2025/03/01, 2025-03-01T00:00:00Z, 01.03.2025 (day first), Mar 1, 2025, 1 March 2025,
 * 01-Mar-2025; 03/01/2025 and 03-01-2025 are month first or day first, as `order` says or as the file
 * shows (see `settleDay`). Years are written in full.
 */
export function parseDayCell(cell: string, order: DateOrder | undefined): DayCell {
  const text = cell
    .trim()
    .replace(/[T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(am|pm)?\s*(z|utc|[+-]\d{2}:?\d{2})?$/i, '')
    .trim();
  const bad = { problem: `"${cell.trim()}" is not a day, such as 2025-03-01` };
  const fromParts = (year: number, month: number | undefined, day: number) => {
    const date = month === undefined ? undefined : calendarDay(year, month, day);
    return date ? { date } : { problem: `"${cell.trim()}" is not a day of the calendar` };
  };
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  if (match) {
    return fromParts(Number(match[1]), Number(match[2]), Number(match[3]));
  }
  match = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (match) {
    return fromParts(Number(match[3]), Number(match[2]), Number(match[1]));
  }
  match = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(text);
  if (match) {
    const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (order) {
      return order === 'mdy' ? fromParts(year, first, second) : fromParts(year, second, first);
    }
    return { ambiguous: { first, second, year } };
  }
  // Mar 1, 2025 · March 1 2025
  match = /^([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(text);
  if (match) {
    return fromParts(Number(match[3]), monthOf(match[1] ?? ''), Number(match[2]));
  }
  // 1 Mar 2025 · 01-Mar-2025 · 1 March, 2025
  match = /^(\d{1,2})[\s-]([a-z]{3,9})\.?,?[\s-](\d{4})$/i.exec(text);
  if (match) {
    return fromParts(Number(match[3]), monthOf(match[2] ?? ''), Number(match[1]));
  }
  if (/^\d{1,2}[/.-]\d{1,2}[/.-]\d{2}$/.test(text)) {
    return { problem: `"${cell.trim()}" has a two-digit year: write the year in full` };
  }
  return bad;
}

/**
 * The order a file's day-or-month-first dates are in, from the dates themselves: a first number over 12
 * is a day (13/03/2025), a second number over 12 is a day (03/13/2025). Undefined when every date could
 * be either (the operator must say) or the file mixes both.
 */
export function dateOrderOf(dates: ReadonlyArray<{ first: number; second: number }>): {
  order?: DateOrder;
  problem?: string;
} {
  const dayFirst = dates.some((date) => date.first > 12);
  const monthFirst = dates.some((date) => date.second > 12);
  if (dayFirst && monthFirst) {
    return { problem: 'the dates mix day-first (31/01/2025) and month-first (01/31/2025) spellings' };
  }
  if (dayFirst || monthFirst) {
    return { order: dayFirst ? 'dmy' : 'mdy' };
  }
  return {
    problem:
      'dates like 03/04/2025 could be March 4 or 3 April: say which with --date-order mdy or dmy (Dates like 03/04/2025 in the console), or export ISO dates (2025-04-03)',
  };
}
