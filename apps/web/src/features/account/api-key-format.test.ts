import { apiKeyMessages } from '@bytegate/contracts/api-keys';
import { controlCharactersMessage, messages } from '@bytegate/contracts/messages';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/api-client.ts';
import {
  buildCurlExample,
  describeExpiry,
  describeExpiryChoice,
  describeLastUse,
  EXPIRY_CHOICES,
  expiryValue,
  fieldOfCreateError,
  parseExpiryValue,
  shownPrefix,
} from './api-key-format.ts';

const now = Date.parse('2026-01-10T12:00:00Z');

describe('an API key as User Settings writes it', () => {
  it('marks the shown prefix as the start of a longer secret', () => {
    expect(shownPrefix({ prefix: 'bg_live_AbCd' })).toBe('bg_live_AbCd…');
  });

  it("says 'Expired' for an expired key, 'Never' for one with no expiry, else the date", () => {
    expect(describeExpiry({ expiresAt: '2026-01-01T00:00:00.000Z', isExpired: true })).toBe('Expired');
    expect(describeExpiry({ expiresAt: null, isExpired: false })).toBe('Never');
    expect(describeExpiry({ expiresAt: '2026-04-10T12:00:00.000Z', isExpired: false })).toBe('Apr 10, 2026');
  });

  it('gives the last use in words with its address, or says it was never used', () => {
    expect(describeLastUse({ lastUsedAt: null, lastUsedIp: null }, now)).toEqual({
      when: 'Never used',
      from: null,
    });
    expect(
      describeLastUse({ lastUsedAt: '2026-01-10T11:55:00.000Z', lastUsedIp: '203.0.113.7' }, now),
    ).toEqual({ when: '5 minutes ago', from: '203.0.113.7' });
  });

  it('builds a request against the public API with the secret as a bearer token', () => {
    expect(buildCurlExample('bg_live_secret', 'https://bytegate.io')).toBe(
      'curl -H "Authorization: Bearer bg_live_secret" https://bytegate.io/api/v1/plans',
    );
  });
});

describe('the expiry choices', () => {
  it("offers the contract's days and 'Never', each round-tripping through the select's value", () => {
    expect(EXPIRY_CHOICES.map((choice) => choice.label)).toEqual(['30 days', '90 days', '1 year', 'Never']);
    for (const { days } of EXPIRY_CHOICES) {
      expect(parseExpiryValue(expiryValue(days))).toBe(days);
    }
  });

  it('says when a choice would end the key, or that it lives until revoked', () => {
    expect(describeExpiryChoice(30, now)).toBe('Expires on Feb 9, 2026.');
    expect(describeExpiryChoice(null, now)).toBe('The key works until you revoke it.');
  });
});

describe('where a refused creation is shown', () => {
  const refusal = (status: number, code: string, error: string) => new ApiError(status, { error, code });

  it('puts a wrong password under the password field', () => {
    expect(fieldOfCreateError(refusal(403, 'WRONG_PASSWORD', messages.currentPasswordWrong))).toBe(
      'password',
    );
  });

  it("puts a refused value under its field, by the contract's message", () => {
    expect(fieldOfCreateError(refusal(400, 'VALIDATION_FAILED', apiKeyMessages.nameTooLong))).toBe('name');
    expect(fieldOfCreateError(refusal(400, 'VALIDATION_FAILED', controlCharactersMessage('Name')))).toBe(
      'name',
    );
    expect(fieldOfCreateError(refusal(400, 'VALIDATION_FAILED', apiKeyMessages.scopesRequired))).toBe(
      'scopes',
    );
    expect(fieldOfCreateError(refusal(400, 'VALIDATION_FAILED', apiKeyMessages.expiryInvalid))).toBe(
      'expires_in_days',
    );
  });

  it('keeps a full account, a rate limit, an unknown refusal and a network failure for the whole form', () => {
    expect(fieldOfCreateError(refusal(409, 'API_KEYS_FULL', apiKeyMessages.full(20)))).toBeNull();
    expect(fieldOfCreateError(refusal(429, 'RATE_LIMITED', 'Too many requests.'))).toBeNull();
    expect(fieldOfCreateError(refusal(400, 'VALIDATION_FAILED', 'The request is not valid'))).toBeNull();
    expect(fieldOfCreateError(new TypeError('Failed to fetch'))).toBeNull();
  });
});
