import { describe, expect, it } from 'vitest';
import { readVendorUsageCsv, type VendorUsageOptions, type VendorUsageRead } from './vendor-usage-csv.ts';
import { decimalMarkOf, parseAmount, parseDayCell } from './vendor-usage-values.ts';

const options: VendorUsageOptions = { units: 'decimal', today: '2025-03-31' };
const read = (text: string, more: Partial<VendorUsageOptions> = {}) =>
  readVendorUsageCsv(text, { ...options, ...more });
/** The days read, or the refusal thrown as an error so a test fails with what it says. */
function daysOf(result: VendorUsageRead) {
  if ('problems' in result) {
    throw new Error(`${result.message}: ${JSON.stringify(result.problems)}`);
  }
  return result.file.days.map(({ date, vendorBytes }) => [date, vendorBytes]);
}

describe('parseAmount', () => {
  it('reads decimal units as 1000-based, binary units as 1024-based, exactly', () => {
    const gb = 1_000_000_000n;
    expect(parseAmount('1.5', gb, 'decimal')).toEqual({ bytes: 1_500_000_000 });
    expect(parseAmount('1.5 GB', undefined, 'decimal')).toEqual({ bytes: 1_500_000_000 });
    expect(parseAmount('1.5 GB', undefined, 'binary')).toEqual({ bytes: 1_610_612_736 });
    expect(parseAmount('1.5GiB', undefined, 'decimal')).toEqual({ bytes: 1_610_612_736 });
    expect(parseAmount('2 TB', undefined, 'decimal')).toEqual({ bytes: 2_000_000_000_000 });
    expect(parseAmount('512 kb', undefined, 'decimal')).toEqual({ bytes: 512_000 });
    expect(parseAmount('1,234,567', 1n, 'decimal')).toEqual({ bytes: 1_234_567 });
    expect(parseAmount('1,234.5 MB', undefined, 'decimal')).toEqual({ bytes: 1_234_500_000 });
    // Half a byte rounds up; a float would have said 1000000000.4999999.
    expect(parseAmount('1.0000000005 GB', undefined, 'decimal')).toEqual({ bytes: 1_000_000_001 });
    expect(parseAmount('1.0000000004 GB', undefined, 'decimal')).toEqual({ bytes: 1_000_000_000 });
    expect(parseAmount('0', gb, 'decimal')).toEqual({ bytes: 0 });
  });

  it('says what is wrong with an amount', () => {
    expect(parseAmount('', 1n, 'decimal')).toEqual({ problem: 'no traffic' });
    expect(parseAmount('-3', 1n, 'decimal')).toEqual({ problem: 'traffic must not be negative (-3)' });
    expect(parseAmount('1,5', 1n, 'decimal')).toEqual({ problem: '1,5 is not a whole number of bytes' });
    expect(parseAmount('12,34,567', 1n, 'decimal')).toEqual({
      problem: '"12,34,567" is not a number, such as 1234.5, 1,234.5 or 1.234,5',
    });
    expect(parseAmount('12 parsecs', undefined, 'decimal')).toEqual({
      problem: '"parsecs" is not a unit: use B, KB, MB, GB, TB (or KiB, MiB, GiB, TiB)',
    });
    expect(parseAmount('1.25', undefined, 'decimal')).toEqual({
      problem: '1.25 has no unit: write it as 1.25 GB, or name the unit in the column (Traffic (GB))',
    });
    expect(parseAmount('10.5', 1n, 'decimal')).toEqual({ problem: '10.5 is not a whole number of bytes' });
    expect(parseAmount('n/a', 1n, 'decimal')).toEqual({
      problem: '"n/a" is not an amount of traffic, such as 1.25 GB or 1342177280',
    });
    expect(parseAmount('99999999 TB', undefined, 'decimal')).toEqual({
      problem: '99999999 TB is more traffic than a day can hold',
    });
  });
});

describe('decimal marks', () => {
  it('tell the mark a number shows by itself, and when it could be either', () => {
    const cases: Array<[string, ReturnType<typeof decimalMarkOf>]> = [
      ['1234', undefined],
      ['1 234', undefined],
      ['1,5', 'comma'],
      ['1,23', 'comma'],
      ['1,2345', 'comma'],
      ['1234,567', 'comma'], // four digits before a comma: no thousands group
      ['0,123', 'comma'], // a lone 0 is never grouped
      ['1.234,5', 'comma'],
      ['1.234.567', 'comma'], // the point repeats: it groups
      ['1 234,567', 'comma'],
      ['1.5', 'point'],
      ['0.123', 'point'],
      ['1,234.5', 'point'],
      ['1,234,567', 'point'],
      ['1,234', 'ambiguous'],
      ['1.234', 'ambiguous'],
      ['999,999', 'ambiguous'],
    ];
    for (const [number, mark] of cases) {
      expect([number, decimalMarkOf(number)]).toEqual([number, mark]);
    }
  });

  it('read an amount with the file’s mark, or its own, and refuse one that could be read both ways', () => {
    expect(parseAmount('1,23 GB', undefined, 'decimal', 'comma')).toEqual({ bytes: 1_230_000_000 });
    expect(parseAmount('1.234,5 MB', undefined, 'decimal', 'comma')).toEqual({ bytes: 1_234_500_000 });
    expect(parseAmount('1 234,5 MB', undefined, 'decimal', 'comma')).toEqual({ bytes: 1_234_500_000 });
    expect(parseAmount('1\u202f234\u202f567', 1n, 'decimal', 'comma')).toEqual({ bytes: 1_234_567 });
    expect(parseAmount('1,234', 1_000_000n, 'decimal', 'comma')).toEqual({ bytes: 1_234_000 });
    expect(parseAmount('1,234', 1_000_000n, 'decimal', 'point')).toEqual({ bytes: 1_234_000_000 });
    expect(parseAmount('1,5 GB', undefined, 'decimal')).toEqual({ bytes: 1_500_000_000 });
    expect(parseAmount('1,234', 1_000_000n, 'decimal')).toEqual({
      problem:
        '"1,234" could be 1234 or 1.234 (a thousands separator or a decimal mark): say which with --decimal-mark point or comma (Decimal mark in the console)',
    });
    expect(parseAmount('1.234 GB', undefined, 'decimal')).toMatchObject({
      problem: expect.stringContaining('"1.234" could be 1234 or 1.234'),
    });
    expect(parseAmount('1.5', 1_000_000n, 'decimal', 'comma')).toEqual({
      problem: '"1.5" is not a number with a decimal comma (1.234,5)',
    });
    expect(parseAmount('1,5', 1_000_000n, 'decimal', 'point')).toEqual({
      problem: '"1,5" is not a number with a decimal point (1,234.5)',
    });
    // Groups of three, all with the same sign.
    expect(parseAmount('1,234 567', 1n, 'decimal', 'point')).toMatchObject({ problem: expect.any(String) });
  });
});

describe('parseDayCell', () => {
  it('reads the ways vendors write a day, ignoring a time after it', () => {
    for (const cell of [
      '2025-03-01',
      '2025/03/01',
      '2025-3-1',
      '2025-03-01T00:00:00Z',
      '2025-03-01 00:00:00',
      '2025-03-01T00:00:00.000+02:00',
      '01.03.2025',
      'Mar 1, 2025',
      'March 1 2025',
      'Mar. 1, 2025',
      '1 Mar 2025',
      '01-Mar-2025',
      '1 March, 2025',
    ]) {
      expect([cell, parseDayCell(cell, undefined)]).toEqual([cell, { date: '2025-03-01' }]);
    }
    expect(parseDayCell('03/01/2025', 'mdy')).toEqual({ date: '2025-03-01' });
    expect(parseDayCell('03/01/2025', 'dmy')).toEqual({ date: '2025-01-03' });
    expect(parseDayCell('03/01/2025 12:00 AM', undefined)).toEqual({
      ambiguous: { first: 3, second: 1, year: 2025 },
    });
  });

  it('refuses what is no day of the calendar', () => {
    expect(parseDayCell('2025-02-30', undefined)).toEqual({
      problem: '"2025-02-30" is not a day of the calendar',
    });
    expect(parseDayCell('Mayday 1, 2025', undefined)).toEqual({
      problem: '"Mayday 1, 2025" is not a day of the calendar',
    });
    expect(parseDayCell('01/03/25', undefined)).toEqual({
      problem: '"01/03/25" has a two-digit year: write the year in full',
    });
    expect(parseDayCell('yesterday', undefined)).toEqual({
      problem: '"yesterday" is not a day, such as 2025-03-01',
    });
  });
});

describe('readVendorUsageCsv', () => {
  it('reads a date column and a traffic column with its unit in the header, adding up a day’s rows', () => {
    const result = read(
      '\uFEFFDate,Sub-user,Traffic (GB),Requests\r\n2025-03-01,alpha,1.5,100\r\n2025-03-01,beta,0.25,7\r\n2025-03-02,alpha,2,9\r\nTotal,,3.75,116\r\n',
    );
    expect(daysOf(result)).toEqual([
      ['2025-03-01', 1_750_000_000],
      ['2025-03-02', 2_000_000_000],
    ]);
    expect(result).toMatchObject({
      file: { rows: 3, skipped: 1, columns: { date: 'Date', traffic: 'Traffic (GB)', unit: null } },
    });
  });

  it('reads bytes, units in each cell, a unit column, semicolons, tabs and quoted thousands', () => {
    expect(daysOf(read('day,bytes\n2025-03-01,1342177280\n'))).toEqual([['2025-03-01', 1_342_177_280]]);
    expect(daysOf(read('Day,Usage\n2025-03-01,1.5 GB\n2025-03-02,512 MiB\n'))).toEqual([
      ['2025-03-01', 1_500_000_000],
      ['2025-03-02', 536_870_912],
    ]);
    expect(daysOf(read('Date,Usage,Unit\n2025-03-01,3,GB\n2025-03-02,400,MB\n'))).toEqual([
      ['2025-03-01', 3_000_000_000],
      ['2025-03-02', 400_000_000],
    ]);
    expect(daysOf(read('Date;Bandwidth (MB)\n01.03.2025;1500\n'))).toEqual([['2025-03-01', 1_500_000_000]]);
    expect(daysOf(read('date\ttraffic_gb\n2025-03-01\t2\n'))).toEqual([['2025-03-01', 2_000_000_000]]);
    expect(daysOf(read('"Date","Traffic, MB"\n"2025-03-01","1,234.5"\n'))).toEqual([
      ['2025-03-01', 1_234_500_000],
    ]);
    // GB read as GiB for a vendor that means it.
    expect(daysOf(read('Date,GB used\n2025-03-01,1\n', { units: 'binary' }))).toEqual([
      ['2025-03-01', 1024 ** 3],
    ]);
  });

  it('reads decimal commas in ;-separated exports, settled by the file’s amounts or the option', () => {
    // A European export: `;` between fields, decimal commas, points grouping thousands.
    const european = 'Date;Traffic (GB)\n01.03.2025;1,23\n02.03.2025;1.234,5\n03.03.2025;1,234\n';
    expect(daysOf(read(european))).toEqual([
      ['2025-03-01', 1_230_000_000],
      ['2025-03-02', 1_234_500_000_000],
      // 1,234 alone could be either; the file's 1,23 says the comma is its decimal mark.
      ['2025-03-03', 1_234_000_000],
    ]);
    expect(daysOf(read('Date;Traffic (GB)\n2025-03-01;12.75\n2025-03-02;1,234\n'))).toEqual([
      ['2025-03-01', 12_750_000_000],
      ['2025-03-02', 1_234_000_000_000],
    ]);
    // Nothing in the file settles it: each amount that could be read both ways is refused on its line.
    const unsettled = 'Date;Traffic (GB)\n2025-03-01;1,234\n2025-03-02;2\n2025-03-03;3.500\n';
    expect(read(unsettled)).toEqual({
      message: '2 lines have problems',
      problems: [
        {
          line: 2,
          message:
            '"1,234" could be 1234 or 1.234 (a thousands separator or a decimal mark): say which with --decimal-mark point or comma (Decimal mark in the console)',
        },
        {
          line: 4,
          message:
            '"3.500" could be 3500 or 3.500 (a thousands separator or a decimal mark): say which with --decimal-mark point or comma (Decimal mark in the console)',
        },
      ],
    });
    expect(daysOf(read(unsettled, { decimalMark: 'comma' }))).toEqual([
      ['2025-03-01', 1_234_000_000],
      ['2025-03-02', 2_000_000_000],
      ['2025-03-03', 3_500_000_000_000],
    ]);
    expect(read('Date;Traffic (GB)\n2025-03-01;1,5\n2025-03-02;2.25\n')).toEqual({
      message: '1 line has a problem',
      problems: [
        {
          line: 3,
          message:
            '"2.25" has a decimal point, but "1,5" on line 2 a decimal comma: say which with --decimal-mark point or comma (Decimal mark in the console)',
        },
      ],
    });
  });

  it('reads a comma in a comma-separated file as a thousands separator when quoted, and refuses a split number', () => {
    expect(daysOf(read('Date,Traffic (MB)\n2025-03-01,"1,234"\n'))).toEqual([['2025-03-01', 1_234_000_000]]);
    // Unquoted, 1,5 is two fields: refused, never read as 1.
    expect(read('Date,Traffic (GB)\n2025-03-01,1,5\n2025-03-02,2\n')).toEqual({
      message: '1 line has a problem',
      problems: [
        {
          line: 2,
          message:
            'the line has 3 fields where the header has 2: a number with a comma in it (1,5 or 1,234) must be quoted ("1,234"), or the file separated by ;',
        },
      ],
    });
    expect(read('Date,Traffic (GB)\n2025-03-01,"1,5"\n')).toEqual({
      message: '1 line has a problem',
      problems: [
        {
          line: 2,
          message:
            '"1,5" has a decimal comma, but in a comma-separated file the point is the decimal mark and a comma groups thousands: separate the fields with ;, or say --decimal-mark comma (Decimal mark in the console)',
        },
      ],
    });
    expect(daysOf(read('Date,Traffic (GB)\n2025-03-01,"1,5"\n', { decimalMark: 'comma' }))).toEqual([
      ['2025-03-01', 1_500_000_000],
    ]);
    // Empty cells past the header's columns (a trailing separator) are no extra field.
    expect(daysOf(read('Date;Traffic (GB)\n2025-03-01;2;;\n'))).toEqual([['2025-03-01', 2_000_000_000]]);
    expect(read('Date;Traffic (GB)\n2025-03-01;2;x\n')).toMatchObject({
      problems: [{ line: 2, message: 'the line has 3 fields where the header has 2' }],
    });
  });

  it('settles day-first and month-first dates from the file, or from the option', () => {
    expect(daysOf(read('Date,GB\n03/12/2025,1\n03/13/2025,2\n'))).toEqual([
      ['2025-03-12', 1_000_000_000],
      ['2025-03-13', 2_000_000_000],
    ]);
    expect(daysOf(read('Date,GB\n12/03/2025,1\n13/03/2025,2\n'))).toEqual([
      ['2025-03-12', 1_000_000_000],
      ['2025-03-13', 2_000_000_000],
    ]);
    expect(read('Date,GB\n03/01/2025,1\n03/02/2025,2\n')).toEqual({
      message: '1 line has a problem',
      problems: [
        {
          line: 2,
          message:
            'dates like 03/04/2025 could be March 4 or 3 April: say which with --date-order mdy or dmy (Dates like 03/04/2025 in the console), or export ISO dates (2025-04-03)',
        },
      ],
    });
    expect(daysOf(read('Date,GB\n03/01/2025,1\n03/02/2025,2\n', { dateOrder: 'dmy' }))).toEqual([
      ['2025-01-03', 1_000_000_000],
      ['2025-02-03', 2_000_000_000],
    ]);
  });

  it('refuses every bad row by its line, and the file as a whole', () => {
    const result = read(
      [
        'Date,Traffic (GB)',
        '2025-03-01,1',
        '',
        '2025-02-30,1',
        '2025-03-02,-1',
        '2025-03-03,abc',
        ',2',
        '2031-01-01,1',
        '1999-12-31,1',
      ].join('\n'),
    );
    expect(result).toEqual({
      message: '6 lines have problems',
      problems: [
        { line: 4, message: '"2025-02-30" is not a day of the calendar' },
        { line: 5, message: 'traffic must not be negative (-1)' },
        { line: 6, message: '"abc" is not an amount of traffic, such as 1.25 GB or 1342177280' },
        { line: 7, message: 'no date' },
        { line: 8, message: '2031-01-01 is in the future (today is 2025-03-31, UTC)' },
        { line: 9, message: '1999-12-31 is before 2000' },
      ],
    });
    expect(read('Date,Traffic (GB)\n"2025-03-04,1\n')).toEqual({
      message: '1 line has a problem',
      problems: [{ line: 2, message: 'a quoted field is never closed' }],
    });
  });

  it('refuses a file without the columns it needs, or with two of a kind', () => {
    const missing =
      'the header must name a date column (Date or Day) and a traffic column (Bytes, or Traffic, Usage or Bandwidth with a unit, such as Traffic (GB))';
    expect(read('Date,Requests\n2025-03-01,5\n')).toEqual({
      message: `${missing}: none of its 2 lines does`,
      problems: [],
    });
    expect(read('Date,Requests\n')).toEqual({ message: `${missing}: its one line does not`, problems: [] });
    const longTitle = `${Array.from({ length: 10 }, (_, i) => `Note ${i}`).join('\n')}\nDate,Bytes\n2025-03-01,5\n`;
    expect(read(longTitle)).toEqual({ message: `${missing}: none of its first 10 lines does`, problems: [] });
    expect(read('')).toEqual({ message: 'the file is empty', problems: [] });
    expect(read('\uFEFF\n \n')).toEqual({ message: 'the file is empty', problems: [] });
    expect(read('Date,Upload (GB),Download (GB)\n2025-03-01,1,2\n')).toMatchObject({
      message:
        'the header (line 1) has several traffic columns (Upload (GB), Download (GB)): keep one, or name the one to read Total',
    });
    // A Total column among several is the one.
    expect(daysOf(read('Date,Upload (GB),Download (GB),Total (GB)\n2025-03-01,1,2,3\n'))).toEqual([
      ['2025-03-01', 3_000_000_000],
    ]);
    expect(read('Date,Traffic (GB)\n2024-01-01,1\n2025-03-01,1\n')).toEqual({
      message: 'the file spans 426 days, from 2024-01-01 to 2025-03-01: import at most 366 days at a time',
      problems: [],
    });
  });
});
