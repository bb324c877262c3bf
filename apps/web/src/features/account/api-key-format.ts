import {
  API_KEY_EXPIRY_DAYS,
  type ApiKey,
  apiKeyMessages,
  type CreateApiKeyBody,
} from '@bytegate/contracts/api-keys';
import { controlCharactersMessage } from '@bytegate/contracts/messages';
import { ApiError } from '../../api/api-client.ts';
import { formatAgo, formatDate } from '../admin/format.ts';

// How User Settings writes an API key: its shortened secret, its expiry, its last use, and the request
// to try it with. Pure, so that the card and the dialog read the same and the rules are unit-tested.

const DAY_MS = 86_400_000;

/** The start of the secret the list shows, marked as cut: `bg_live_AbCd…`. */
export const shownPrefix = (key: Pick<ApiKey, 'prefix'>) => `${key.prefix}…`;

/** The expiry choices of the create dialog, in days (null never expires), with their labels. */
export const EXPIRY_CHOICES: ReadonlyArray<{ days: number | null; label: string }> = [
  ...API_KEY_EXPIRY_DAYS.map((days) => ({ days, label: days === 365 ? '1 year' : `${days} days` })),
  { days: null, label: 'Never' },
];
/** A key that lives a quarter by default: long enough for a script, short enough to be rotated. */
export const DEFAULT_EXPIRY_DAYS = 90;

/** The select's value for a choice, and back: `'90'`, `'never'`. */
export const expiryValue = (days: number | null) => (days === null ? 'never' : String(days));
export const parseExpiryValue = (value: string): number | null => (value === 'never' ? null : Number(value));

/** What the dialog says a choice means: 'Expires on Apr 5, 2026.' */
export function describeExpiryChoice(days: number | null, now = Date.now()): string {
  return days === null
    ? 'The key works until you revoke it.'
    : `Expires on ${formatDate(new Date(now + days * DAY_MS).toISOString())}.`;
}

/** The list's expiry column: 'Never', 'Expired', or the date it stops working. */
export function describeExpiry(key: Pick<ApiKey, 'expiresAt' | 'isExpired'>): string {
  if (key.isExpired) {
    return 'Expired';
  }
  return key.expiresAt === null ? 'Never' : formatDate(key.expiresAt);
}

/** The list's last-use column: when (in words) and from which address, or 'Never used'. */
export function describeLastUse(
  key: Pick<ApiKey, 'lastUsedAt' | 'lastUsedIp'>,
  now = Date.now(),
): { when: string; from: string | null } {
  if (key.lastUsedAt === null) {
    return { when: 'Never used', from: null };
  }
  return { when: formatAgo(key.lastUsedAt, now), from: key.lastUsedIp };
}

/** The request the new-key view offers to try the key with: the plans, which every `read` key may list. */
export function buildCurlExample(secret: string, origin: string): string {
  return `curl -H "Authorization: Bearer ${secret}" ${origin}/api/v1/plans`;
}

type FieldName = keyof CreateApiKeyBody;

const FIELD_OF_MESSAGE: ReadonlyArray<[string, FieldName]> = [
  [apiKeyMessages.nameRequired, 'name'],
  [apiKeyMessages.nameTooLong, 'name'],
  [apiKeyMessages.scopesRequired, 'scopes'],
  [apiKeyMessages.scopeUnknown, 'scopes'],
  [apiKeyMessages.expiryInvalid, 'expires_in_days'],
  [apiKeyMessages.passwordRequired, 'password'],
  [controlCharactersMessage('Name'), 'name'],
  [controlCharactersMessage('Password'), 'password'],
  [controlCharactersMessage('Code'), 'code'],
];

/**
 * The form field a refused creation belongs under, or null for the form as a whole (a full account,
 * too many attempts, a failure): a wrong password goes under the password, a missing or wrong
 * two-factor code under the code, a refused value under its
 * field (the server words it as the contract does).
 */
export function fieldOfCreateError(error: unknown): FieldName | null {
  if (!(error instanceof ApiError)) {
    return null;
  }
  if (error.code === 'WRONG_PASSWORD') {
    return 'password';
  }
  if (error.code === 'TWO_FACTOR_REQUIRED' || error.code === 'INVALID_TWO_FACTOR_CODE') {
    return 'code';
  }
  if (error.code !== 'VALIDATION_FAILED') {
    return null;
  }
  return FIELD_OF_MESSAGE.find(([message]) => error.message === message)?.[1] ?? null;
}
