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
    ['::', '::'],
    ['2001:0db8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['fe80::1:2', 'fe80::1:2'],
    ['::ffff:c000:0280', '192.0.2.128'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
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
