import { describe, expect, it } from 'vitest';
import { readVendorUsageCsv, type VendorUsageRead } from './vendor-usage-csv.ts';
import { findHeader } from './vendor-usage-header.ts';

const read = (text: string) => readVendorUsageCsv(text, { units: 'decimal', today: '2025-03-31' });
function daysOf(result: VendorUsageRead) {
  if ('problems' in result) {
    throw new Error(`${result.message}: ${JSON.stringify(result.problems)}`);
  }
  return result.file.days.map(({ date, vendorBytes }) => [date, vendorBytes]);
}
const headerOf = (text: string) => {
  const header = findHeader(text, { units: 'decimal' });
  return 'message' in header
    ? header
    : { line: header.record.line, separator: header.separator, columns: header.columns };
};

describe('the header of a usage export', () => {
  it('is found below a title, blank lines and a byte order mark, and problems keep the file’s lines', () => {
    const exported = [
      '\uFEFFIPRoyal data usage report',
      '',
      'Account: acme-resi',
      '   ',
      'Date,Traffic (GB)',
      '2025-03-01,1.5',
      '2025-03-02,2',
    ].join('\r\n');
    expect(daysOf(read(exported))).toEqual([
      ['2025-03-01', 1_500_000_000],
      ['2025-03-02', 2_000_000_000],
    ]);
    expect(headerOf(exported)).toMatchObject({ line: 5, separator: ',', columns: { date: 0, traffic: 1 } });
    // A bad row is named by its line in the file, title lines counted.
    expect(read(`${exported}\r\n2025-03-03,abc`)).toEqual({
      message: '1 line has a problem',
      problems: [{ line: 8, message: '"abc" is not an amount of traffic, such as 1.25 GB or 1342177280' }],
    });
  });

  it('passes over a title that reads like one, and takes the separator of the header’s line', () => {
    // The title splits at its comma into a "usage" cell and a "date" cell, but no day follows it.
    const titled =
      'Daily usage report, date range 2025-03-01 to 2025-03-02\nDate;Bandwidth (MB)\n01.03.2025;1500\n';
    expect(headerOf(titled)).toMatchObject({ line: 2, separator: ';' });
    expect(daysOf(read(titled))).toEqual([['2025-03-01', 1_500_000_000]]);
    const tabbed = 'Usage, March 2025\n\ndate\tsub-user\ttraffic_gb\n2025-03-01\talpha\t2\n';
    expect(headerOf(tabbed)).toMatchObject({ line: 3, separator: '\t', columns: { date: 0, traffic: 2 } });
    // A header whose first row is bad is still the header: the row is refused, not the file's shape.
    expect(read('Report\nDate,Traffic (GB)\nyesterday,1\n')).toEqual({
      message: '1 line has a problem',
      problems: [{ line: 3, message: '"yesterday" is not a day, such as 2025-03-01' }],
    });
  });

  it('names the header line that has several columns of a kind', () => {
    expect(read('Usage export\nDate,Upload (GB),Download (GB)\n2025-03-01,1,2\n')).toEqual({
      message:
        'the header (line 2) has several traffic columns (Upload (GB), Download (GB)): keep one, or name the one to read Total',
      problems: [],
    });
  });
});
