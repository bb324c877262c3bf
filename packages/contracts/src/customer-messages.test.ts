import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { profileFormSchema, updateProfileRequestSchema } from './account.ts';
import { createApiKeyBodySchema } from './api-keys.ts';
import { signupRequestSchema } from './auth.ts';
import { purchasePlanRequestSchema } from './billing.ts';
import { contactRequestSchema } from './contact.ts';
import {
  checkProxySettings,
  geoOptionsRequestSchema,
  saveProxySettingsRequestSchema,
} from './proxy-settings.ts';
import { createProxyUserBodySchema } from './proxy-users.ts';
import { createThreadRequestSchema } from './thread-requests.ts';
import { createTopupRequestSchema } from './topup.ts';

// Every refusal of a field a customer types reaches them as it is (a toast, a line under the field):
// it must be written for people. zod's own messages ('Too big: expected string to have <=200
// characters', 'Invalid input: expected string, received number') are not.

const ZOD_DEFAULT = /^(Too big|Too small|Invalid input|Invalid option|Invalid string|Expected|Required$)/;

const long = (length: number) => 'a'.repeat(length);
const proxySettings = { pool_type: 'residential' };

const cases: Array<[string, z.ZodType, unknown, string]> = [
  [
    'a city over 200 characters',
    saveProxySettingsRequestSchema,
    { ...proxySettings, cities: [long(201)] },
    'Each city must be at most 200 characters',
  ],
  [
    'a state over 200 characters',
    saveProxySettingsRequestSchema,
    { ...proxySettings, states: [long(201)] },
    'Each state must be at most 200 characters',
  ],
  [
    'cities as text over 20,000 characters',
    saveProxySettingsRequestSchema,
    { ...proxySettings, cities: long(20_001) },
    'Cities must be at most 20,000 characters',
  ],
  [
    'over 1,000 ZIP codes',
    saveProxySettingsRequestSchema,
    { ...proxySettings, zipcodes: Array(1001).fill('10115') },
    'At most 1,000 entries in zip codes',
  ],
  [
    'a rotation interval of 21 characters',
    saveProxySettingsRequestSchema,
    { ...proxySettings, rotation_interval: long(21) },
    'Rotation interval must be between 1 and 120 minutes.',
  ],
  [
    'a lookup narrowed by a long city',
    geoOptionsRequestSchema,
    { ...proxySettings, cities: [long(201)] },
    'Each city must be at most 200 characters',
  ],
  [
    'a long company in the profile form',
    profileFormSchema,
    { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: long(201) },
    'Company must be at most',
  ],
  [
    'a long company in the profile',
    updateProfileRequestSchema,
    { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: long(201) },
    'Company must be at most',
  ],
  [
    'a long first name at sign-up',
    signupRequestSchema,
    { firstName: long(101), lastName: 'L', email: 'ada@example.com', password: 'long enough password' },
    'First name must be at most 100 characters',
  ],
  [
    'a long plan label',
    purchasePlanRequestSchema,
    { label: long(101), pool_type: 'mobile', default_pool_parameters: { quantity: 5 } },
    'Label must be at most 100 characters',
  ],
  [
    '4 GB',
    purchasePlanRequestSchema,
    { pool_type: 'mobile', default_pool_parameters: { quantity: 4 } },
    'The minimum purchase is 5 GB',
  ],
  [
    '100,001 GB',
    purchasePlanRequestSchema,
    { pool_type: 'mobile', default_pool_parameters: { quantity: 100_001 } },
    'The maximum purchase is 100,000 GB',
  ],
  ['$3', createTopupRequestSchema, { amount: '3' }, 'Minimum top-up amount is $5.00'],
  [
    'a long contact message name',
    contactRequestSchema,
    { name: long(101), email: 'ada@example.com', message: 'Hi' },
    'Name must be at most 100 characters',
  ],
  [
    'a long API key password',
    createApiKeyBodySchema,
    { name: 'CI', scopes: ['read'], password: long(1025) },
    'Password must be at most 1024 characters',
  ],
  [
    'a long proxy user login',
    createProxyUserBodySchema,
    { login: long(65) },
    'A login is 8 to 32 lowercase letters',
  ],
  [
    'a long allowlisted address',
    createProxyUserBodySchema,
    { allowlist: [long(65)] },
    'Each address must be at most 64 characters',
  ],
  ['a thread request without a plan', createThreadRequestSchema, {}, 'Plan id is required'],
];

describe('refusals of what customers type', () => {
  it.each(cases)('words %s for people', (_name, schema, input, expected) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    const messages = result.success ? [] : result.error.issues.map((issue) => issue.message);
    for (const message of messages) {
      expect(message).not.toMatch(ZOD_DEFAULT);
    }
    expect(messages.join(' | ')).toContain(expected);
  });

  it('refuses a too-long state or city in the form before anything is sent, at the field', () => {
    expect(checkProxySettings({ countries: ['FR'], cities: [long(201)] })).toEqual({
      ok: false,
      message: 'Each city must be at most 200 characters',
      field: 'cities',
    });
    expect(checkProxySettings({ countries: ['FR'], states: long(201) })).toMatchObject({
      ok: false,
      field: 'states',
    });
  });
});
