/** One record of a CSV file: its cells, and the line it starts on (the first line is 1). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** The separators a CSV file may use. */
export const CSV_SEPARATORS = [',', ';', '\t'] as const;
export type CsvSeparator = (typeof CSV_SEPARATORS)[number];

/** A file's records, and the line of a quoted cell never closed (it ran to the end of the file). */
export interface CsvRead {
  records: CsvRecord[];
  unclosedQuoteLine?: number;
}

/**
 * The records of a CSV file as spreadsheets and vendors write them (RFC 4180): cells in double quotes may
 * hold the separator, line breaks and `""` for a quote. Blank lines and lines starting with `#` are
 * skipped. `limit`: stop after that many records (a look at the file's first lines).
 */
export function readCsv(text: string, separator: CsvSeparator, limit = Number.POSITIVE_INFINITY): CsvRead {
  const records: CsvRecord[] = [];
  let unclosedQuoteLine: number | undefined;
  let line = 1;
  let index = 0;
  while (index < text.length && records.length < limit) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    let quotedFrom = 0;
    let isRecordEnd = false;
    const lineStart = index;
    while (index < text.length && !isRecordEnd) {
      const char = text[index] as string;
      if (quotedFrom > 0) {
        if (char === '"' && text[index + 1] === '"') {
          cell += '"';
          index += 2;
          continue;
        }
        if (char === '"') {
          quotedFrom = 0;
        } else {
          if (char === '\n') {
            line += 1;
          }
          cell += char;
        }
        index += 1;
        continue;
      }
      if (char === '"' && cell.trim() === '') {
        quotedFrom = line;
        cell = '';
      } else if (char === separator) {
        cells.push(cell);
        cell = '';
      } else if (char === '\n' || char === '\r') {
        isRecordEnd = true;
        index += char === '\r' && text[index + 1] === '\n' ? 1 : 0;
        line += 1;
      } else {
        cell += char;
      }
      index += 1;
    }
    if (quotedFrom > 0) {
      unclosedQuoteLine = quotedFrom;
    }
    cells.push(cell);
    const raw = text.slice(lineStart, index).trim();
    if (raw !== '' && !raw.startsWith('#')) {
      records.push({ line: start, cells });
    }
  }
  return unclosedQuoteLine === undefined ? { records } : { records, unclosedQuoteLine };
}

/**
 * The records of a CSV file (see readCsv) whose separator is the first line's comma, semicolon or tab,
 * whichever it holds most of.
 */
export function readCsvRecords(text: string): CsvRecord[] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = CSV_SEPARATORS.reduce<CsvSeparator>(
    (best, candidate) =>
      firstLine.split(candidate).length > firstLine.split(best).length ? candidate : best,
    ',',
  );
  return readCsv(text, separator).records;
}
