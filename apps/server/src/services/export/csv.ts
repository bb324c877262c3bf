/**
 * The one CSV writer of every export (the Statistics' views, proxy lists): UTF-8, one header row, lines
 * ending CRLF, a field quoted when it holds a comma, a quote or a line break, its quotes doubled
 * (RFC 4180).
 *
 * A text field that a spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) gets a leading `'`, as OWASP's "CSV Injection" advice says: such text can come from
 * anyone (a target host is whatever a proxy client asked for), and a formula in its owner's file could
 * run commands or send the sheet's data away. Numbers are written as they are: the code produced them
 * from numbers, so a negative amount (-12.5) is a number to the spreadsheet, not a formula, and stays
 * one. Anything that is not a number (including a number that arrived as text) is text.
 */

/** What a cell may hold: text, a number the code computed, a flag, or nothing (an empty cell). */
export type CsvCell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field as written: neutralized when it is text that starts like a formula, then quoted if needed. */
export function csvField(value: CsvCell): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new Error(`a CSV number must be finite, not ${value}`);
    }
    return String(value);
  }
  if (typeof value === 'boolean') {
    return String(value);
  }
  const text = value ?? '';
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A whole file: the header row, then each row, every line ending CRLF. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<CsvCell>>): string {
  return [header, ...rows]
    .map((row) => row.map(csvField).join(','))
    .join('\r\n')
    .concat('\r\n');
}
