import { z } from 'zod';
import { passwordInput } from './fields.ts';
import { waitText } from './messages.ts';
import { text } from './text.ts';

// Two-factor authentication (issue 18): a TOTP app (RFC 6238: SHA-1, 6 digits, 30 s) and ten single-use
// recovery codes. The rules of what a code looks like live here, for the server and the web app alike.

/** Digits of an authenticator app's code. */
export const TOTP_DIGITS = 6;
/** Seconds each app code lasts (one time step). */
export const TOTP_PERIOD_SECONDS = 30;
/** Recovery codes an account holds after enrolment or regeneration. */
export const RECOVERY_CODE_COUNT = 10;
/** A sign-in waiting for its code lasts this long, for this many wrong codes. */
export const SIGN_IN_CHALLENGE_TTL_SECONDS = 300;
export const SIGN_IN_CHALLENGE_MAX_ATTEMPTS = 5;

/** The letters and digits of recovery codes: no 0/o, 1/l/i, so that none is misread. */
export const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** A recovery code as shown: `xxxx-xxxx`. */
const RECOVERY_CODE = new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{8}$`);

export const twoFactorMessages = {
  codeRequired: 'Enter the code from your authenticator app.',
  recoveryCodeRequired: 'Enter one of your recovery codes.',
  required:
    'Two-factor authentication is on: enter the code from your authenticator app (or a recovery code).',
  invalidCode: 'That code is not right, or it was already used. Try the newest code from your app.',
  challengeEnded: 'This sign-in has expired or had too many wrong codes. Please sign in again.',
  tooManyCodes: (seconds: number) => `Too many wrong codes. Please try again in ${waitText(seconds)}.`,
  alreadyOn: 'Two-factor authentication is already on.',
  notOn: 'Two-factor authentication is not on.',
  noSetup: 'Start setting up two-factor authentication again: the secret shown before is no longer waiting.',
  enabled: 'Two-factor authentication is on',
  disabled: 'Two-factor authentication is off',
  recoveryCodesRegenerated: 'New recovery codes made: the old ones no longer work',
} as const;

/** What a code typed in looks like, read leniently: spaces and dashes are dropped, letters lower-cased. */
export type CodeKind = 'totp' | 'recovery' | 'malformed';

/** A typed code without spaces and dashes, lower-cased: `ABCD-2345` and ` abcd 2345 ` are `abcd2345`. */
export function normalizeCode(input: string): string {
  return input.replace(/[\s-]/g, '').toLowerCase();
}

/** Whether a typed code is an app code (6 digits), a recovery code (8 of its letters), or neither. */
export function classifyCode(input: string): CodeKind {
  const code = normalizeCode(input);
  if (new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) {
    return 'totp';
  }
  return RECOVERY_CODE.test(code) ? 'recovery' : 'malformed';
}

/** A recovery code as shown to a person: `abcd-2345`. */
export function formatRecoveryCode(code: string): string {
  const normalized = normalizeCode(code);
  return `${normalized.slice(0, 4)}-${normalized.slice(4)}`;
}

/** A base32 secret in groups of four, for reading it off the screen into an app: `ABCD EFGH …`. */
export function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/** An app or recovery code as a request carries it (its form is judged by the server, as a wrong code). */
export const twoFactorCodeField = text('Code', { shouldTrim: true, error: twoFactorMessages.codeRequired })
  .min(1, twoFactorMessages.codeRequired)
  .max(64, 'Code must be at most 64 characters');

/**
 * The code that actions asked again (password change, deletion, API keys, disabling) take while 2FA is
 * on; left out or empty, they answer 403 TWO_FACTOR_REQUIRED (so a form may always send its field).
 */
export const optionalTwoFactorCodeField = text('Code', { shouldTrim: true })
  .max(64, 'Code must be at most 64 characters')
  .optional();

/** Two-factor's part of `GET /api/user-settings/security`. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** When it was turned on (ISO time), null while off. */
  enabledAt: z.string().nullable(),
  /** Unused recovery codes (0 while off). */
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** `GET /api/user-settings/security`: how the account is protected and how it signs in. */
export const securityStatusResponseSchema = z.object({
  twoFactor: twoFactorStatusSchema,
  /** The Google account linked for sign-in (its email, which may differ from the account's), or null. */
  google: z.object({ email: z.string() }).nullable(),
  /** False for an account created with Google that has not set a password yet. */
  hasPassword: z.boolean(),
});
export type SecurityStatusResponse = z.infer<typeof securityStatusResponseSchema>;

/**
 * `POST /api/user-settings/two-factor/setup`: starting enrolment takes the password (an account without
 * one, created with Google, leaves it out).
 */
export const startTwoFactorSetupRequestSchema = z.object({ password: passwordInput().optional() });
export type StartTwoFactorSetupRequest = z.input<typeof startTwoFactorSetupRequestSchema>;

/** The secret waiting to be confirmed, three ways: for a camera, for a link, and for typing. */
export const twoFactorSetupResponseSchema = z.object({
  /** `otpauth://totp/Bytegate:<email>?secret=…&issuer=Bytegate&algorithm=SHA1&digits=6&period=30`. */
  otpauthUri: z.string(),
  /** The same URI as a QR code: an SVG image as a `data:` URL. */
  qrCodeDataUrl: z.string(),
  /** The base32 secret itself. */
  secret: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponseSchema>;

/** `POST /api/user-settings/two-factor/confirm` and `/recovery-codes`: a code from the app. */
export const twoFactorCodeRequestSchema = z.object({ code: twoFactorCodeField });
export type TwoFactorCodeRequest = z.input<typeof twoFactorCodeRequestSchema>;

/** New recovery codes, shown this once (`xxxx-xxxx`), with the status they leave. */
export const recoveryCodesResponseSchema = z.object({
  recoveryCodes: z.array(z.string()),
  twoFactor: twoFactorStatusSchema,
});
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/** `POST /api/user-settings/two-factor/disable`: the password (none for an account without one) and a code. */
export const disableTwoFactorRequestSchema = z.object({
  password: passwordInput().optional(),
  code: optionalTwoFactorCodeField,
});
export type DisableTwoFactorRequest = z.input<typeof disableTwoFactorRequestSchema>;

/** What `POST /api/auth/login` answers instead of a session when the account has 2FA on. */
export const twoFactorChallengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  /** Send it back with the code to `POST /api/auth/login/two-factor`; it works once. */
  challengeToken: z.string(),
  expiresInSeconds: z.number().int(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;
