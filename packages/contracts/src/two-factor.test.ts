import { describe, expect, it } from 'vitest';
import { classifyCode, formatRecoveryCode, groupSecret, normalizeCode } from './two-factor.ts';

describe('two-factor codes as typed', () => {
  it('drops spaces and dashes and lower-cases', () => {
    expect(normalizeCode(' 123 456 ')).toBe('123456');
    expect(normalizeCode('ABCD-2345')).toBe('abcd2345');
  });

  it('tells app codes, recovery codes and anything else apart', () => {
    expect(classifyCode('123456')).toBe('totp');
    expect(classifyCode('123 456')).toBe('totp');
    expect(classifyCode('abcd-2345')).toBe('recovery');
    expect(classifyCode('ABCD 2345')).toBe('recovery');
    // All digits, but eight of them: a recovery code's length.
    expect(classifyCode('2345-6789')).toBe('recovery');
    for (const malformed of ['', '12345', '1234567', 'abcd-234', 'abcd-23450', 'abc0-2345', 'lol1-2345']) {
      expect(classifyCode(malformed)).toBe('malformed');
    }
  });

  it('shows recovery codes as xxxx-xxxx and secrets in groups of four', () => {
    expect(formatRecoveryCode('ABCD2345')).toBe('abcd-2345');
    expect(groupSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDEF')).toBe('ABCD EF');
  });
});
