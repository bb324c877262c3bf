import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_PREFIX,
  API_KEY_SECRET,
  type ApiKey,
  type ApiKeyScope,
  apiKeyMessages,
  type CreatedApiKey,
} from '@bytegate/contracts/api-keys';
import { googleMessages } from '@bytegate/contracts/google';
import { messages } from '@bytegate/contracts/messages';
import {
  type ApiKeyRow,
  countApiKeys,
  getLiveApiKeyBySecretHash,
  createApiKey as insertApiKey,
  MAX_API_KEYS_PER_USER,
  revokeApiKey as markRevoked,
  listApiKeys as selectApiKeys,
  touchApiKey,
  type UserRow,
} from '@bytegate/db/queries';
import { requireVerifiedEmail } from '../account-links/require-verified-email.ts';
import { reauthenticate } from '../accounts/reauthenticate.ts';
import type { TwoFactorCheck } from '../accounts/two-factor/two-factor-check.ts';
import { recordActivity } from '../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';

/** How many characters of the secret the list shows (`bg_live_` and four more). */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function toApiKey(row: ApiKeyRow, now = new Date()): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp ?? null,
    isExpired: row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime(),
  };
}

/**
 * Creates a key after checking the account password and, while two-factor is on, a code (a stolen
 * session alone cannot mint a key that outlives it); answers the key and its secret, which is never shown again.
 * While EMAIL_VERIFICATION is required the account's email must be proven first (403 EMAIL_NOT_VERIFIED):
 * someone who signed up with another person's address holds no key when its owner takes it back.
 */
export async function createApiKey(
  ctx: ServiceContext,
  props: {
    userId: string;
    name: string;
    scopes: ApiKeyScope[];
    expiresInDays: number | null;
    password: string;
    /** Required while two-factor authentication is on. */
    code?: string | undefined;
    twoFactor: TwoFactorCheck;
    now?: Date;
    /** The request, for the activity feed. */
    origin?: RequestOrigin;
  },
): Promise<CreatedApiKey> {
  const now = props.now ?? new Date();
  // A full account is told so before its password and code are asked for (no code is spent on it).
  if ((await countApiKeys(ctx.db, { userId: props.userId })) >= MAX_API_KEYS_PER_USER) {
    throw new DomainError('API_KEYS_FULL', apiKeyMessages.full(MAX_API_KEYS_PER_USER));
  }
  await requireVerifiedEmail(ctx, { userId: props.userId, message: apiKeyMessages.emailNotVerified });
  const user = await reauthenticate(ctx.db, {
    userId: props.userId,
    password: props.password,
    code: props.code,
    twoFactor: props.twoFactor,
    wrongPasswordMessage: messages.currentPasswordWrong,
    withoutPassword: { refusal: googleMessages.setPasswordBeforeApiKeys },
  });
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await insertApiKey(tx, {
      userId: user.id,
      name: props.name,
      prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
      secretHash: hashApiKeySecret(secret),
      scopes: props.scopes,
      expiresAt:
        props.expiresInDays === null ? null : new Date(now.getTime() + props.expiresInDays * 86_400_000),
    });
    await recordActivity(tx, {
      userId: user.id,
      kind: 'api_key_created',
      details: { name: inserted.name, scopes: inserted.scopes },
      origin: props.origin,
    });
    return inserted;
  });
  return { key: toApiKey(row, now), secret };
}

export async function listApiKeys(ctx: ServiceContext, props: { userId: string }): Promise<ApiKey[]> {
  const now = new Date();
  return (await selectApiKeys(ctx.db, props)).map((row) => toApiKey(row, now));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function revokeApiKey(
  ctx: ServiceContext,
  props: { userId: string; keyId: string; origin?: RequestOrigin },
): Promise<void> {
  // An id that cannot name a key is unknown like any other (and never reaches a uuid column).
  if (!UUID.test(props.keyId)) {
    throw new DomainError('NOT_FOUND', apiKeyMessages.notFound);
  }
  await ctx.db.transaction(async (tx) => {
    const revoked = await markRevoked(tx, { userId: props.userId, keyId: props.keyId, now: new Date() });
    if (!revoked) {
      throw new DomainError('NOT_FOUND', apiKeyMessages.notFound);
    }
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'api_key_revoked',
      details: { name: revoked.name },
      origin: props.origin,
    });
  });
}

/** Whether a bearer token is an API key (by its form): such a token is never a session. */
export function isApiKeySecret(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** The live key and its owner behind a secret, or null; notes its use (at most once a minute). */
export async function authenticateApiKey(
  ctx: ServiceContext,
  secret: string,
  ipAddress: string | null,
): Promise<{ key: ApiKeyRow; user: UserRow } | null> {
  if (!API_KEY_SECRET.test(secret)) {
    return null;
  }
  const now = new Date();
  const found = await getLiveApiKeyBySecretHash(ctx.db, { secretHash: hashApiKeySecret(secret), now });
  // last_used is informational: written at most once a minute, so reads stay reads.
  if (found && now.getTime() - (found.key.lastUsedAt?.getTime() ?? 0) > 60_000) {
    await touchApiKey(ctx.db, { keyId: found.key.id, now, ipAddress });
  }
  return found;
}
