import { describe, expect, it } from 'vitest';
import { exitIpOfAnswer } from './probe-through-network.ts';

describe('exitIpOfAnswer', () => {
  it.each([
    ['a bare address (ipify, icanhazip)', '203.0.113.7\n', '203.0.113.7'],
    ['an IPv6 address', ' 2001:db8::1 ', '2001:db8::1'],
    ['JSON with ip', '{"ip":"198.51.100.4"}', '198.51.100.4'],
    ['httpbin: origin, the first of a list', '{"origin": "198.51.100.4, 10.0.0.1"}', '198.51.100.4'],
    ['ip-api: query', '{"status":"success","query":"192.0.2.55"}', '192.0.2.55'],
  ])('reads %s', (_, body, ip) => {
    expect(exitIpOfAnswer(body)).toBe(ip);
  });

  it.each([
    ['an HTML page', '<html>ok</html>'],
    ['an empty body', ''],
    ['JSON without an address', '{"ip": "not an address", "status": "ok"}'],
    ['a JSON number', '42'],
    ['a list', '["203.0.113.7"]'],
  ])('learns nothing from %s', (_, body) => {
    expect(exitIpOfAnswer(body)).toBeNull();
  });
});
