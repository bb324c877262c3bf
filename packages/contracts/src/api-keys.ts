import { z } from 'zod';
import { text } from './text.ts';
import { optionalTwoFactorCodeField } from './two-factor.ts';

// API keys (issue 17): long-lived keys for the public API (`/api/v1`), each with the scopes it may use.
// Created in User Settings with the account password; the secret is shown once.

export const API_KEY_SCOPES = ['read', 'proxy_users', 'purchase', 'billing'] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** What each scope lets a key do, as User Settings explains it. */
export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, { title: string; description: string }> = {
  read: { title: 'Read', description: 'Plans, traffic, usage and proxy lists' },
  proxy_users: { title: 'Proxy users', description: 'Create, change and delete proxy users' },
  purchase: { title: 'Purchase', description: 'Buy traffic from the account balance' },
  billing: { title: 'Billing', description: 'Create top-up invoices' },
};

/** Every secret starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'bg_live_';
/** The secret after the prefix: 32 random bytes in base64url. */
export const API_KEY_SECRET = /^bg_live_[A-Za-z0-9_-]{43}$/;
export const API_KEY_NAME_MAX_LENGTH = 64;
/** Expiry choices in User Settings, in days; null never expires. */
export const API_KEY_EXPIRY_DAYS = [30, 90, 365] as const;
export const API_KEY_MAX_EXPIRY_DAYS = 3650;

export const apiKeyMessages = {
  nameRequired: 'Please give the key a name.',
  nameTooLong: `The name must be at most ${API_KEY_NAME_MAX_LENGTH} characters.`,
  scopesRequired: 'Choose at least one scope.',
  scopeUnknown: `Scopes must be among ${API_KEY_SCOPES.join(', ')}.`,
  expiryInvalid: `Expiry must be a whole number of days from 1 to ${API_KEY_MAX_EXPIRY_DAYS}, or none.`,
  passwordRequired: 'Please enter your password.',
  emailNotVerified:
    'Please verify your email address before creating an API key: follow the link we emailed you, or send a new one from the dashboard.',
  full: (max: number) =>
    `You have ${max} API keys, the most an account may hold: revoke one to create another.`,
  notFound: 'No such API key',
  keyNotAccepted: 'API keys work on the public API (/api/v1) only: sign in to use the dashboard.',
  missingKey: 'Send your API key as Authorization: Bearer bg_live_…',
  invalidKey: 'This API key is unknown, revoked or expired.',
  insufficientScope: (scope: ApiKeyScope) => `This API key lacks the "${scope}" scope this request needs.`,
} as const;

export const createApiKeyBodySchema = z.object({
  name: text('Name', { shouldTrim: true, error: apiKeyMessages.nameRequired })
    .min(1, apiKeyMessages.nameRequired)
    .max(API_KEY_NAME_MAX_LENGTH, apiKeyMessages.nameTooLong),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: apiKeyMessages.scopeUnknown }), {
      error: apiKeyMessages.scopeUnknown,
    })
    .min(1, apiKeyMessages.scopesRequired)
    .max(API_KEY_SCOPES.length, apiKeyMessages.scopeUnknown)
    .transform((scopes) => [...new Set(scopes)]),
  expires_in_days: z
    .number({ error: apiKeyMessages.expiryInvalid })
    .int(apiKeyMessages.expiryInvalid)
    .min(1, apiKeyMessages.expiryInvalid)
    .max(API_KEY_MAX_EXPIRY_DAYS, apiKeyMessages.expiryInvalid)
    .nullable()
    .default(null),
  password: text('Password', { isMultiline: true, error: apiKeyMessages.passwordRequired })
    .min(1, apiKeyMessages.passwordRequired)
    .max(1024, 'Password must be at most 1024 characters'),
  /** Required while two-factor authentication is on. */
  code: optionalTwoFactorCodeField,
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;

/** A key as listed: never its secret. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The secret's first characters (`bg_live_AbCd`), to tell keys apart. */
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  isExpired: z.boolean(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to a creation: the key, and its secret this once. */
export const createdApiKeySchema = z.object({ key: apiKeySchema, secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
