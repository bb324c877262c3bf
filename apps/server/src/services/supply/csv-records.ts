/** One record of a CSV file: its cells, and the line it starts on (the first line is 1). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * The records of a CSV file as spreadsheets and vendors write them (RFC 4180): cells in double quotes may
 * hold the separator, line breaks and `""` for a quote. The separator is the first line's comma,
 * semicolon or tab, whichever it holds most of. Blank lines and lines starting with `#` are skipped.
 */
export function readCsvRecords(text: string): CsvRecord[] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = [',', ';', '\t'].reduce((best, candidate) =>
    firstLine.split(candidate).length > firstLine.split(best).length ? candidate : best,
  );
  const records: CsvRecord[] = [];
  let line = 1;
  let index = 0;
  while (index < text.length) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    let isQuoted = false;
    let isRecordEnd = false;
    const lineStart = index;
    while (index < text.length && !isRecordEnd) {
      const char = text[index] as string;
      if (isQuoted) {
        if (char === '"' && text[index + 1] === '"') {
          cell += '"';
          index += 2;
          continue;
        }
        if (char === '"') {
          isQuoted = false;
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
        isQuoted = true;
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
    cells.push(cell);
    const raw = text.slice(lineStart, index).trim();
    if (raw !== '' && !raw.startsWith('#')) {
      records.push({ line: start, cells });
    }
  }
  return records;
}
