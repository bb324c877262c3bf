import { describe, expect, it } from 'vitest';
import { locateExitIp, readExitIp } from './locate-exit-ip.ts';

// The real databases of the installed packages, read from disk: no packet is sent. The answers are
// those of the locked versions (GeoLite2 of 2026-06-17); the cases are public resolvers and hosts whose
// country and network have not moved in years (an update of the packages may move a city).

describe('locateExitIp', () => {
  it('places public IPv4 and IPv6 exits in their country, state, city and network', {
    timeout: 60_000,
  }, async () => {
    expect(await locateExitIp('8.8.8.8')).toEqual({
      country: 'US',
      state: null,
      city: null,
      zip: null,
      asn: 15169,
      asnName: 'Google LLC',
    });
    expect(await locateExitIp('139.130.4.5')).toEqual({
      country: 'AU',
      state: 'Victoria',
      city: 'Melbourne',
      zip: '3166',
      asn: 1221,
      asnName: 'Telstra Limited',
    });
    expect(await locateExitIp('2001:4860:4860::8888')).toMatchObject({ country: 'US', asn: 15169 });
    expect(await locateExitIp('2a02:6b8::2:242')).toMatchObject({ country: 'RU', asn: 13238 });
    expect(await locateExitIp('77.88.55.242')).toMatchObject({ country: 'RU', asn: 13238 });
  });

  it('answers null for private, loopback and reserved addresses, anycast without a country, and non-addresses', async () => {
    for (const ip of [
      '10.1.2.3',
      '192.168.1.10',
      '172.16.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '100.64.0.1',
      '1.1.1.1',
      'not an address',
      '',
    ]) {
      expect(await locateExitIp(ip), ip).toBeNull();
    }
  });

  it('reads an exit IP written as vendors and echo services write it', async () => {
    expect(readExitIp(' 203.0.113.7\n')).toBe('203.0.113.7');
    expect(readExitIp('::ffff:8.8.8.8')).toBe('8.8.8.8');
    expect(readExitIp('203.0.113.7:8080')).toBe('203.0.113.7');
    expect(readExitIp('[2001:DB8::1]:443')).toBe('2001:db8::1');
    expect(readExitIp('2001:db8::1')).toBe('2001:db8::1');
    expect(readExitIp('example.com')).toBeNull();
    expect(readExitIp('999.1.1.1')).toBeNull();
    expect((await locateExitIp('::ffff:139.130.4.5'))?.city).toBe('Melbourne');
  });
});
