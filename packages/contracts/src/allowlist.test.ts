import { describe, expect, it } from 'vitest';
import {
  addAllowlistRequestSchema,
  allowlistMessages,
  canonicalIpAddress,
  isPublicAddress,
} from './allowlist.ts';

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

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.0.3.1',
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:db9::1',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(canonicalIpAddress(address) as string)).toBe(true);
  });

  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.1.2.3',
    '100.64.0.1',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.10',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.23',
    '203.0.113.7',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:10.0.0.1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '64:ff9b::808:808',
    '2001:db8::42',
    '3fff::1',
    '2001:2::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(canonicalIpAddress(address) as string)).toBe(false);
  });
});
