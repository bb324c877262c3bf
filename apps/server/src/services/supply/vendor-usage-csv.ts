import { type CsvRecord, type CsvSeparator, readCsv } from './csv-records.ts';
import { type Columns, findHeader, type Header, TOTAL_ROWS } from './vendor-usage-header.ts';
import {
  type ByteUnits,
  bytesPerUnit,
  type DateOrder,
  type DecimalMark,
  dateOrderOf,
  decimalMarkOf,
  MARK_OPTION,
  numberOf,
  parseAmount,
  parseDayCell,
} from './vendor-usage-values.ts';

// A vendor's usage export, read whole and pure: a CSV with a header (among its first lines, see
// vendor-usage-header.ts) that names a date column and a traffic column (and maybe a unit column), one or
// more rows a day. All or nothing: any bad row refuses the file with every problem by line (the file's
// own line numbers), so an import never half happens.

/** A line of the file that cannot be read, and why (line 1 is the file's first line, above the header or not). */
export interface VendorUsageProblem {
  line: number;
  message: string;
}

/** One UTC day of the file: the traffic of its rows added up. */
export interface VendorUsageFileDay {
  date: string;
  vendorBytes: number;
  rows: number;
}

export interface VendorUsageFile {
  days: VendorUsageFileDay[];
  /** Rows read into the days, and rows left out as totals (`Total`, `Sum` in the date column). */
  rows: number;
  skipped: number;
  /** The columns read, as the header names them. */
  columns: { date: string; traffic: string; unit: string | null };
}

export type VendorUsageRead = { file: VendorUsageFile } | { message: string; problems: VendorUsageProblem[] };

export interface VendorUsageOptions {
  units: ByteUnits;
  dateOrder?: DateOrder | undefined;
  /** The amounts' decimal mark; otherwise as the file shows it (see decimalMarkOfFile). */
  decimalMark?: DecimalMark | undefined;
  /** Today's UTC day (YYYY-MM-DD): a later day is refused. */
  today: string;
}

/** Rows a file may hold, and the days it may span (an import is a month's or a year's export). */
export const VENDOR_USAGE_MAX_ROWS = 100_000;
export const VENDOR_USAGE_MAX_SPAN_DAYS = 366;
const PROBLEMS_SHOWN = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `n lines have problems` (or one), and the first problems by line. */
function refusal(problems: VendorUsageProblem[]): VendorUsageRead {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const lines = new Set(sorted.map((problem) => problem.line)).size;
  return {
    message: lines === 1 ? '1 line has a problem' : `${lines} lines have problems`,
    problems: sorted.slice(0, PROBLEMS_SHOWN),
  };
}

interface ReadRow {
  line: number;
  bytes: number;
  date?: string;
  ambiguous?: { first: number; second: number; year: number };
}

/** The rows under the header, blank ones left out. */
function rowsUnder(text: string, header: Header): CsvRecord[] | VendorUsageProblem {
  const read = readCsv(text, header.separator);
  if (read.unclosedQuoteLine !== undefined) {
    return { line: read.unclosedQuoteLine, message: 'a quoted field is never closed' };
  }
  return read.records.filter(
    (record) => record.line > header.record.line && record.cells.some((cell) => cell.trim() !== ''),
  );
}

/** The file's decimal mark, how it was settled, and a problem when the amounts disagree. */
interface FileDecimalMark {
  mark: DecimalMark | undefined;
  isBySeparator: boolean;
  problem?: VendorUsageProblem;
}

/**
 * The amounts' decimal mark. Given by the operator, it is that one. In a comma-separated file it is the
 * point, and a comma in an amount groups thousands: such a file can hold a comma in a number only
 * quoted ("1,234.5"), which is how US and UK exports write a grouped number, while exports in
 * decimal-comma locales separate fields with `;` (spreadsheets' list separator follows the decimal
 * mark). An unquoted 1,234 there is two fields, refused by the count of fields (never read as 1 or as
 * 1234). Otherwise (`;`, tab) the amounts settle it: one that shows its mark (1,5 · 1.234,5 · 0,123 ·
 * 12.75) settles it for the file, and one that could be either (1,234 with nothing else to go by) is
 * refused on its line.
 */
function decimalMarkOfFile(
  rows: readonly CsvRecord[],
  columns: Columns,
  separator: CsvSeparator,
  given: DecimalMark | undefined,
): FileDecimalMark {
  if (given !== undefined || separator === ',') {
    return { mark: given ?? 'point', isBySeparator: given === undefined };
  }
  const first: Partial<Record<DecimalMark, { line: number; number: string }>> = {};
  for (const { line, cells } of rows) {
    if (TOTAL_ROWS.has((cells[columns.date] ?? '').trim().toLowerCase())) {
      continue;
    }
    const number = numberOf(cells[columns.traffic] ?? '');
    const shown = number === undefined ? undefined : decimalMarkOf(number);
    if ((shown === 'point' || shown === 'comma') && number !== undefined) {
      first[shown] ??= { line, number };
    }
  }
  const { point, comma } = first;
  if (point && comma) {
    const [earlier, later] = point.line < comma.line ? [point, comma] : [comma, point];
    const markOf = (found: typeof point) => (found === point ? 'point' : 'comma');
    return {
      mark: undefined,
      isBySeparator: false,
      problem: {
        line: later.line,
        message: `"${later.number}" has a decimal ${markOf(later)}, but "${earlier.number}" on line ${earlier.line} a decimal ${markOf(earlier)}: ${MARK_OPTION}`,
      },
    };
  }
  return { mark: point ? 'point' : comma ? 'comma' : undefined, isBySeparator: false };
}

/** A problem with a row's cells as such: more fields than the header names (a number split in two). */
function fieldsProblem(cells: readonly string[], header: Header): string | undefined {
  const named = header.record.cells.length;
  if (!cells.slice(named).some((cell) => cell.trim() !== '')) {
    return undefined;
  }
  const count = `the line has ${cells.length} fields where the header has ${named}`;
  return header.separator === ','
    ? `${count}: a number with a comma in it (1,5 or 1,234) must be quoted ("1,234"), or the file separated by ;`
    : count;
}

/** Reads a vendor's usage export (see the module's comment); a refusal says why, by line where it can. */
export function readVendorUsageCsv(content: string, options: VendorUsageOptions): VendorUsageRead {
  const text = content.replace(/^\uFEFF/, '');
  const header = findHeader(text, options);
  if ('message' in header) {
    return { message: header.message, problems: [] };
  }
  const lines = rowsUnder(text, header);
  if (!Array.isArray(lines)) {
    return refusal([lines]);
  }
  if (lines.length > VENDOR_USAGE_MAX_ROWS) {
    return { message: `the file has more than ${VENDOR_USAGE_MAX_ROWS} rows: split it`, problems: [] };
  }
  const { columns } = header;
  const decimal = decimalMarkOfFile(lines, columns, header.separator, options.decimalMark);
  const problems: VendorUsageProblem[] = decimal.problem ? [decimal.problem] : [];
  const rows: ReadRow[] = [];
  let skipped = 0;
  for (const { line, cells } of lines) {
    const fields = fieldsProblem(cells, header);
    if (fields !== undefined) {
      problems.push({ line, message: fields });
      continue;
    }
    const dateCell = cells[columns.date] ?? '';
    if (TOTAL_ROWS.has(dateCell.trim().toLowerCase())) {
      skipped += 1;
      continue;
    }
    const unitCell = columns.unit === null ? '' : (cells[columns.unit] ?? '').trim();
    const rowUnit = unitCell === '' ? columns.trafficUnit : bytesPerUnit(unitCell, options.units);
    if (unitCell !== '' && rowUnit === undefined) {
      problems.push({
        line,
        message: `"${unitCell}" is not a unit: use B, KB, MB, GB, TB (or KiB, MiB, GiB, TiB)`,
      });
      continue;
    }
    const trafficCell = cells[columns.traffic] ?? '';
    const number = numberOf(trafficCell);
    const amount =
      decimal.isBySeparator && number !== undefined && decimalMarkOf(number) === 'comma'
        ? {
            problem: `"${number}" has a decimal comma, but in a comma-separated file the point is the decimal mark and a comma groups thousands: separate the fields with ;, or say --decimal-mark comma (Decimal mark in the console)`,
          }
        : parseAmount(trafficCell, rowUnit, options.units, decimal.mark);
    const day = dateCell.trim() === '' ? { problem: 'no date' } : parseDayCell(dateCell, options.dateOrder);
    for (const found of [day, amount]) {
      if ('problem' in found) {
        problems.push({ line, message: found.problem });
      }
    }
    if ('bytes' in amount && !('problem' in day)) {
      rows.push({ line, bytes: amount.bytes, ...day });
    }
  }
  settleAmbiguousDates(rows, problems);
  for (const row of rows) {
    if (row.date !== undefined && row.date > options.today) {
      problems.push({
        line: row.line,
        message: `${row.date} is in the future (today is ${options.today}, UTC)`,
      });
    } else if (row.date !== undefined && row.date < '2000-01-01') {
      problems.push({ line: row.line, message: `${row.date} is before 2000` });
    }
  }
  if (problems.length > 0) {
    return refusal(problems);
  }
  const file = fileOf(rows, skipped, header.record.cells, columns);
  if (spanDays(file) > VENDOR_USAGE_MAX_SPAN_DAYS) {
    const message = `the file spans ${spanDays(file)} days, from ${file.days[0]?.date} to ${file.days.at(-1)?.date}: import at most ${VENDOR_USAGE_MAX_SPAN_DAYS} days at a time`;
    return { message, problems: [] };
  }
  const tooMuch = file.days.find((day) => !Number.isSafeInteger(day.vendorBytes));
  if (tooMuch) {
    return { message: `${tooMuch.date} adds up to more traffic than a day can hold`, problems: [] };
  }
  return { file };
}

/** Day-or-month-first dates read in the file's one order, or a problem at the first of them. */
function settleAmbiguousDates(rows: ReadRow[], problems: VendorUsageProblem[]): void {
  const ambiguous = rows.filter((row) => row.ambiguous !== undefined);
  if (ambiguous.length === 0) {
    return;
  }
  const settled = dateOrderOf(ambiguous.map((row) => row.ambiguous ?? { first: 0, second: 0 }));
  if (!settled.order) {
    problems.push({ line: ambiguous[0]?.line ?? 0, message: settled.problem ?? 'ambiguous dates' });
    return;
  }
  for (const row of ambiguous) {
    const { first, second, year } = row.ambiguous ?? { first: 0, second: 0, year: 0 };
    const day = parseDayCell(
      `${String(year)}-${settled.order === 'mdy' ? first : second}-${settled.order === 'mdy' ? second : first}`,
      undefined,
    );
    if ('date' in day) {
      row.date = day.date;
    } else {
      problems.push({ line: row.line, message: `${first}/${second}/${year} is not a day of the calendar` });
    }
  }
}

/** The rows added up by day, oldest first. */
function fileOf(rows: ReadRow[], skipped: number, names: string[], columns: Columns): VendorUsageFile {
  const byDay = new Map<string, VendorUsageFileDay>();
  for (const row of rows) {
    const date = row.date ?? '';
    const day = byDay.get(date) ?? { date, vendorBytes: 0, rows: 0 };
    day.vendorBytes += row.bytes;
    day.rows += 1;
    byDay.set(date, day);
  }
  const days = [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
  return {
    days,
    rows: rows.length,
    skipped,
    columns: {
      date: names[columns.date]?.trim() ?? '',
      traffic: names[columns.traffic]?.trim() ?? '',
      unit: columns.unit === null ? null : (names[columns.unit]?.trim() ?? null),
    },
  };
}

/** Days from the file's first to its last, both included. */
export function spanDays(file: VendorUsageFile): number {
  const first = file.days[0]?.date;
  const last = file.days.at(-1)?.date;
  if (!first || !last) {
    return 0;
  }
  return Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY_MS) + 1;
}
