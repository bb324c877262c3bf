import { describe, expect, it } from 'vitest';
import { addAllowlistRequestSchema, allowlistMessages, canonicalIpAddress } from './allowlist.ts';

describe('canonicalIpAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['2001:DB8:0:0:0:0:0:7', '2001:db8::7'],
    ['2001:db8::7', '2001:db8::7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::1', '::1'],
  ])('%s is %s', (input, expected) => {
    expect(canonicalIpAddress(input)).toBe(expected);
  });

  it.each(['', 'localhost', '256.1.1.1', '1.2.3', '203.0.113.7/24', '2001:db8::7::1', 'http://1.2.3.4'])(
    'refuses %j',
    (input) => {
      expect(canonicalIpAddress(input)).toBeNull();
    },
  );

  it('gives the spec-style message for a bad address', () => {
    const result = addAllowlistRequestSchema.safeParse({ subuser_id: 'x', address: 'nope' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(allowlistMessages.invalidAddress);
  });
});
