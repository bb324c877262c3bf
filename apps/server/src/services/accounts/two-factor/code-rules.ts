import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import {
  normalizeCode,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
} from '@bytegate/contracts/two-factor';
import { HOTP, Secret, TOTP } from 'otpauth';

// The pure rules of two-factor codes, apart from the database that makes each code single-use.

/** Steps either side of now an app code may be for: its clock may be a little off (RFC 6238 §5.2). */
export const TOTP_WINDOW_STEPS = 1;
const ISSUER = 'Bytegate';

/** A new TOTP secret: 160 random bits (RFC 4226's recommended length), in base32. */
export function createTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(params: { secret: string; accountName: string }): string {
  return new TOTP({
    issuer: ISSUER,
    label: params.accountName,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(params.secret),
  }).toString();
}

/** The RFC 6238 time step of a moment. */
export function totpStepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The app code of a secret for one time step. */
export function totpCodeFor(secret: string, step: number): string {
  return HOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    counter: step,
  });
}

/**
 * The time step an app code was made for, within one step either side of `now`, or null. Each candidate
 * is compared in constant time. Whether that step may still be used is `isStepUnused`'s question.
 */
export function matchTotpStep(params: { secret: string; code: string; now: Date }): number | null {
  const given = Buffer.from(normalizeCode(params.code));
  const current = totpStepAt(params.now);
  let matched: number | null = null;
  for (let delta = -TOTP_WINDOW_STEPS; delta <= TOTP_WINDOW_STEPS; delta += 1) {
    const expected = Buffer.from(totpCodeFor(params.secret, current + delta));
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      matched = current + delta;
    }
  }
  return matched;
}

/** A code is used once: its step must come after the last step accepted (and so must every later one). */
export function isStepUnused(step: number, lastStep: number | null): boolean {
  return lastStep === null || step > lastStep;
}

/** Ten new recovery codes, `xxxx-xxxx` from an alphabet without look-alikes (about 40 bits each). */
export function generateRecoveryCodes(count: number = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    let code = '';
    for (let i = 0; i < 8; i += 1) {
      code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
    }
    codes.add(`${code.slice(0, 4)}-${code.slice(4)}`);
  }
  return [...codes];
}

/** What is stored of a recovery code: the SHA-256 of its normalized form, however it was typed. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeCode(code)).digest('hex');
}
