import { CSV_SEPARATORS, type CsvRecord, type CsvSeparator, readCsv } from './csv-records.ts';
import { type ByteUnits, bytesPerUnit, type DateOrder, parseDayCell } from './vendor-usage-values.ts';

// Where a vendor's usage export starts: the header row among its first lines (vendors put a title, the
// account, the period or blank lines above it), the separator it is written with, and the columns it names.

/** How many of a file's first non-blank lines may come before and include the header. */
export const HEADER_SEARCH_LINES = 10;

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
/** What a date cell says on a row of totals, left out. */
export const TOTAL_ROWS = new Set(['total', 'totals', 'sum', 'grand total', 'all']);

export interface Columns {
  date: number;
  traffic: number;
  unit: number | null;
  /** The traffic column's own unit (Traffic (GB), bytes); undefined when each row must say it. */
  trafficUnit: bigint | undefined;
}

/** The header found: its record, the file's separator and the columns it names. */
export interface Header {
  record: CsvRecord;
  separator: CsvSeparator;
  columns: Columns;
}

const wordsOf = (name: string) =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** One column among candidates: the only one, else the only one whose name is `preferred` alone. */
function pickOne(candidates: number[], names: string[], isPreferred: (words: string[]) => boolean) {
  if (candidates.length <= 1) {
    return candidates[0];
  }
  const preferred = candidates.filter((index) => isPreferred(wordsOf(names[index] ?? '')));
  return preferred.length === 1 ? preferred[0] : null;
}

const MISSING =
  'must name a date column (Date or Day) and a traffic column (Bytes, or Traffic, Usage or Bandwidth with a unit, such as Traffic (GB))';

/** A line's columns if it is a header; else whether it names none (`missing`) or several of a kind. */
function columnsOf(names: string[], units: ByteUnits): Columns | { missing: true } | { several: string } {
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
    return { missing: true };
  }
  if (date === null) {
    return { several: `has several date columns (${listed(dates)}): keep one` };
  }
  if (amount === null) {
    return {
      several: `has several traffic columns (${listed(traffic)}): keep one, or name the one to read Total`,
    };
  }
  return { date, traffic: amount, unit, trafficUnit: unitOf(wordsOf(names[amount] ?? '')) };
}

interface Candidate extends Header {
  /** Its place among the first lines, and whether the line after it starts with a day (or a total). */
  position: number;
  isFollowedByDay: boolean;
}

/**
 * The header: among the first HEADER_SEARCH_LINES non-blank lines, read with each separator, the first
 * that names a date column and a traffic column and is followed by a row whose date cell is a day (so a
 * title such as "Usage report, date range ..." is passed over), else the first that names them at all
 * (unless a line names several of a kind: that header is refused). On one line, the separator that
 * splits it into the most cells wins. A refusal says why.
 */
export function findHeader(
  text: string,
  options: { units: ByteUnits; dateOrder?: DateOrder | undefined },
): Header | { message: string } {
  const candidates: Candidate[] = [];
  let several: { line: number; message: string } | undefined;
  let lineCount = 0;
  for (const separator of CSV_SEPARATORS) {
    const lines = readCsv(text, separator, HEADER_SEARCH_LINES * 4).records.filter((record) =>
      record.cells.some((cell) => cell.trim() !== ''),
    );
    lineCount = Math.max(lineCount, lines.length);
    lines.slice(0, HEADER_SEARCH_LINES).forEach((record, position) => {
      const columns = columnsOf(record.cells, options.units);
      if ('several' in columns) {
        if (!several || record.line < several.line) {
          several = { line: record.line, message: columns.several };
        }
        return;
      }
      if ('missing' in columns) {
        return;
      }
      const dateCell = (lines[position + 1]?.cells[columns.date] ?? '').trim();
      const isFollowedByDay =
        TOTAL_ROWS.has(dateCell.toLowerCase()) ||
        (dateCell !== '' && !('problem' in parseDayCell(dateCell, options.dateOrder)));
      candidates.push({ record, separator, columns, position, isFollowedByDay });
    });
  }
  if (lineCount === 0) {
    return { message: 'the file is empty' };
  }
  const best = candidates.sort(
    (a, b) =>
      Number(b.isFollowedByDay) - Number(a.isFollowedByDay) ||
      a.position - b.position ||
      b.record.cells.length - a.record.cells.length,
  )[0];
  // A line naming several traffic columns is a header to fix, rather than a title read as one.
  if (best && (best.isFollowedByDay || !several)) {
    return { record: best.record, separator: best.separator, columns: best.columns };
  }
  if (several) {
    return { message: `the header (line ${several.line}) ${several.message}` };
  }
  const looked =
    lineCount === 1
      ? 'its one line does not'
      : lineCount <= HEADER_SEARCH_LINES
        ? `none of its ${lineCount} lines does`
        : `none of its first ${HEADER_SEARCH_LINES} lines does`;
  return { message: `the header ${MISSING}: ${looked}` };
}
