import {
  type ByteUnits,
  bytesPerUnit,
  type DateOrder,
  dateOrderOf,
  parseAmount,
  parseDayCell,
} from './vendor-usage-values.ts';

// A vendor's usage export, read whole and pure: a CSV with a header that names a date column and a
// traffic column (and maybe a unit column), one or more rows a day. All or nothing: any bad row refuses
// the file with every problem by line (the header's line is the first), so an import never half happens.

/** A line of the file that cannot be read, and why (line 1 is the file's first line). */
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
  /** Today's UTC day (YYYY-MM-DD): a later day is refused. */
  today: string;
}

/** Rows a file may hold, and the days it may span (an import is a month's or a year's export). */
export const VENDOR_USAGE_MAX_ROWS = 100_000;
export const VENDOR_USAGE_MAX_SPAN_DAYS = 366;
const PROBLEMS_SHOWN = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

const TRAFFIC_WORDS = new Set([
  'traffic',
  'usage',
  'used',
  'bandwidth',
  'data',
  'bytes',
  'volume',
  'consumption',
  'consumed',
  'transfer',
  'transferred',
]);
const DATE_WORDS = new Set(['date', 'day', 'period']);
const TOTAL_ROWS = new Set(['total', 'totals', 'sum', 'grand total', 'all']);

interface CsvRecord {
  line: number;
  cells: string[];
}

/** The file's delimiter: a comma, unless its first line has more semicolons or tabs (outside quotes). */
function delimiterOf(text: string): string {
  const firstLine = (text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

/** RFC 4180 records, each with the line it starts on; quoted fields may hold delimiters, quotes and lines. */
function readRecords(text: string, delimiter: string): CsvRecord[] | VendorUsageProblem {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let quotedFrom = 0;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const char = text[i];
    if (quotedFrom > 0) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (char === '"') {
        quotedFrom = 0;
      } else {
        cell += char;
        line += char === '\n' ? 1 : 0;
      }
      i += 1;
      continue;
    }
    if (char === '"' && cell.trim() === '') {
      quotedFrom = line;
      cell = '';
    } else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      endRecord();
      i += char === '\r' && text[i + 1] === '\n' ? 1 : 0;
      line += 1;
      recordLine = line;
    } else {
      cell += char;
    }
    i += 1;
  }
  if (quotedFrom > 0) {
    return { line: quotedFrom, message: 'a quoted field is never closed' };
  }
  if (cell !== '' || cells.length > 0) {
    endRecord();
  }
  return records;
}

const wordsOf = (name: string) =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

interface Columns {
  date: number;
  traffic: number;
  unit: number | null;
  /** The traffic column's own unit (Traffic (GB), bytes); undefined when each row must say it. */
  trafficUnit: bigint | undefined;
}

/** One column among candidates: the only one, else the only one whose name is `preferred` alone. */
function pickOne(candidates: number[], names: string[], isPreferred: (words: string[]) => boolean) {
  if (candidates.length <= 1) {
    return candidates[0];
  }
  const preferred = candidates.filter((index) => isPreferred(wordsOf(names[index] ?? '')));
  return preferred.length === 1 ? preferred[0] : null;
}

/** The header's columns, or what is missing from it. */
function columnsOf(names: string[], units: ByteUnits): Columns | string {
  const unitOf = (words: string[]) =>
    words.map((word) => bytesPerUnit(word, units)).find((unit) => unit !== undefined);
  const dates: number[] = [];
  const traffic: number[] = [];
  let unit: number | null = null;
  names.forEach((name, index) => {
    const words = wordsOf(name);
    if (words.some((word) => DATE_WORDS.has(word))) {
      dates.push(index);
    } else if (words.length === 1 && (words[0] === 'unit' || words[0] === 'units')) {
      unit = index;
    } else if (words.some((word) => TRAFFIC_WORDS.has(word)) || unitOf(words) !== undefined) {
      traffic.push(index);
    }
  });
  const listed = (indexes: number[]) => indexes.map((index) => names[index]?.trim()).join(', ');
  const date = pickOne(dates, names, (words) => words.length === 1);
  const amount = pickOne(traffic, names, (words) => words.includes('total'));
  if (date === undefined || amount === undefined) {
    return 'the header must name a date column (Date or Day) and a traffic column (Bytes, or Traffic, Usage or Bandwidth with a unit, such as Traffic (GB))';
  }
  if (date === null) {
    return `the header has several date columns (${listed(dates)}): keep one`;
  }
  if (amount === null) {
    return `the header has several traffic columns (${listed(traffic)}): keep one, or name the one to read Total`;
  }
  return { date, traffic: amount, unit, trafficUnit: unitOf(wordsOf(names[amount] ?? '')) };
}

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

/** Reads a vendor's usage export (see the module's comment); a refusal says why, by line where it can. */
export function readVendorUsageCsv(content: string, options: VendorUsageOptions): VendorUsageRead {
  const text = content.replace(/^\uFEFF/, '');
  const records = readRecords(text, delimiterOf(text));
  if (!Array.isArray(records)) {
    return refusal([records]);
  }
  const lines = records.filter(
    (record) => record.cells.some((cell) => cell.trim() !== '') && !record.cells[0]?.startsWith('#'),
  );
  const header = lines.shift();
  if (!header) {
    return { message: 'the file is empty', problems: [] };
  }
  if (lines.length > VENDOR_USAGE_MAX_ROWS) {
    return { message: `the file has more than ${VENDOR_USAGE_MAX_ROWS} rows: split it`, problems: [] };
  }
  const columns = columnsOf(header.cells, options.units);
  if (typeof columns === 'string') {
    return { message: columns.replace(/^the header/, `the header (line ${header.line})`), problems: [] };
  }
  const problems: VendorUsageProblem[] = [];
  const rows: ReadRow[] = [];
  let skipped = 0;
  for (const { line, cells } of lines) {
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
    const amount = parseAmount(cells[columns.traffic] ?? '', rowUnit, options.units);
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
  const file = fileOf(rows, skipped, header.cells, columns);
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
