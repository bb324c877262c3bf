import { RECOVERY_CODE_COUNT } from '@bytegate/contracts/two-factor';
import { type TOTP, URI } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  createTotpSecret,
  generateRecoveryCodes,
  hashRecoveryCode,
  isStepUnused,
  matchTotpStep,
  totpCodeFor,
  totpStepAt,
  totpUri,
} from './code-rules.ts';

// RFC 6238 appendix B's SHA-1 secret ("12345678901234567890") in base32, and its published codes
// (the last 6 of the 8 digits the RFC lists).
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: Array<[seconds: number, code: string]> = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
];

describe('TOTP codes (RFC 6238: SHA-1, 6 digits, 30 s)', () => {
  it.each(RFC_VECTORS)('at %i s the code is %s', (seconds, code) => {
    const at = new Date(seconds * 1000);
    expect(totpCodeFor(RFC_SECRET, totpStepAt(at))).toBe(code);
    expect(matchTotpStep({ secret: RFC_SECRET, code, now: at })).toBe(Math.floor(seconds / 30));
  });

  it('accepts a code one step either side of now, and not two', () => {
    const now = new Date(1_800_000_015_000);
    const step = totpStepAt(now);
    for (const delta of [-1, 0, 1]) {
      const code = totpCodeFor(RFC_SECRET, step + delta);
      expect(matchTotpStep({ secret: RFC_SECRET, code, now })).toBe(step + delta);
    }
    for (const delta of [-2, 2, 10]) {
      const code = totpCodeFor(RFC_SECRET, step + delta);
      expect(matchTotpStep({ secret: RFC_SECRET, code, now })).toBeNull();
    }
  });

  it('reads a code typed with spaces, and refuses wrong lengths and other secrets', () => {
    const now = new Date(1_800_000_015_000);
    const code = totpCodeFor(RFC_SECRET, totpStepAt(now));
    expect(
      matchTotpStep({ secret: RFC_SECRET, code: `${code.slice(0, 3)} ${code.slice(3)}`, now }),
    ).not.toBeNull();
    expect(matchTotpStep({ secret: RFC_SECRET, code: code.slice(1), now })).toBeNull();
    expect(matchTotpStep({ secret: RFC_SECRET, code: `${code}0`, now })).toBeNull();
    expect(matchTotpStep({ secret: createTotpSecret(), code, now })).toBeNull();
  });

  it('uses a step once: only a step after the last accepted one is unused', () => {
    expect(isStepUnused(100, null)).toBe(true);
    expect(isStepUnused(101, 100)).toBe(true);
    expect(isStepUnused(100, 100)).toBe(false);
    // An older code, still inside the window, is refused once a newer one was accepted.
    expect(isStepUnused(99, 100)).toBe(false);
  });

  it('makes 160-bit secrets and an otpauth URI an app reads back to the same codes', () => {
    const secret = createTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(createTotpSecret()).not.toBe(secret);
    const uri = totpUri({ secret, accountName: 'ada@example.com' });
    expect(uri).toBe(
      `otpauth://totp/Bytegate:ada%40example.com?issuer=Bytegate&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    const app = URI.parse(uri) as TOTP;
    const now = new Date();
    expect(app.generate({ timestamp: now.getTime() })).toBe(totpCodeFor(secret, totpStepAt(now)));
  });
});

describe('recovery codes', () => {
  it('makes ten distinct xxxx-xxxx codes from an alphabet without look-alikes', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) {
      expect(code).toMatch(/^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);
    }
  });

  it('hashes a code the same however it is typed (case, spaces, dash)', () => {
    const hash = hashRecoveryCode('abcd-2345');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    for (const typed of ['ABCD-2345', 'abcd2345', ' abcd 2345 ', 'AbCd - 2345']) {
      expect(hashRecoveryCode(typed)).toBe(hash);
    }
    expect(hashRecoveryCode('abcd-2346')).not.toBe(hash);
  });
});
