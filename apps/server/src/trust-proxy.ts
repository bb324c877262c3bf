import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

// TRUST_PROXY as config.ts reads it: which reverse proxies may name the client in X-Forwarded-For.

const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];
const isProxyAddress = (text: string) =>
  PROXY_PRESETS.includes(text) ||
  [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()].some((schema) => schema.safeParse(text).success);

/** More hops than any real chain of reverse proxies: the extra ones would be the client's own claims. */
const MAX_PROXY_HOPS = 5;
/**
 * The widest public networks a proxy list may name (a CDN's published ranges are far narrower): a /0 or
 * a /1 trusts (nearly) every address, as `true` would.
 */
const MIN_PREFIX_V4 = 8;
const MIN_PREFIX_V6 = 16;

/**
 * Whether a network is too wide to be a set of reverse proxies (0.0.0.0/0, ::/0, 128.0.0.0/1, or
 * ::ffff:0:0/96, every IPv4 address in IPv6 notation, which proxy-addr reads as 0.0.0.0/0).
 */
function isTrustEverything(entry: string): boolean {
  const [address = '', prefixText] = entry.split('/');
  if (prefixText === undefined) {
    return false;
  }
  const prefix = Number(prefixText);
  if (isIP(address) === 4) {
    return prefix < MIN_PREFIX_V4;
  }
  // An IPv4-mapped network (::ffff:a.b.c.d/96+, however spelled) stands for the IPv4 one 96 bits shorter.
  const mapped = new BlockList();
  mapped.addSubnet('::ffff:0.0.0.0', 96, 'ipv6');
  if (prefix >= 96 && mapped.check(address, 'ipv6')) {
    return prefix - 96 < MIN_PREFIX_V4;
  }
  // Unique-local (fc00::/7) and link-local (fe80::/10) networks hold no public address, however wide.
  const local = new BlockList();
  local.addSubnet('fc00::', 7, 'ipv6');
  local.addSubnet('fe80::', 10, 'ipv6');
  return prefix < MIN_PREFIX_V6 && !(prefix >= 7 && local.check(address, 'ipv6'));
}

/**
 * Which reverse proxies may say who the client is (X-Forwarded-For): none, how many hops sit in front
 * of the server, or their addresses and networks. Never "any": a client could then claim any address
 * and walk past every per-address limit.
 */
export const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    const text = (value ?? '').trim();
    if (text === '' || text === 'false' || text === '0' || text === 'no') {
      return false;
    }
    if (/^\d+$/.test(text)) {
      const hops = Number(text);
      if (hops <= MAX_PROXY_HOPS) {
        return hops;
      }
      ctx.addIssue({
        code: 'custom',
        message: `must be at most ${MAX_PROXY_HOPS} proxy hops (the reverse proxies in front of the server); ${text} would believe any X-Forwarded-For, as true would`,
      });
      return z.NEVER;
    }
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const everything = entries.find((entry) => isProxyAddress(entry) && isTrustEverything(entry));
    if (everything !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must name the proxies' own addresses or networks (at most /${MIN_PREFIX_V4} wide, /${MIN_PREFIX_V6} for IPv6); ${everything} would believe any X-Forwarded-For, as true would`,
      });
      return z.NEVER;
    }
    if (entries.length > 0 && entries.every(isProxyAddress)) {
      return entries;
    }
    ctx.addIssue({
      code: 'custom',
      message:
        text === 'true' || text === 'yes'
          ? 'must say which proxies to trust: their number (1 for one reverse proxy) or their addresses; true would believe any X-Forwarded-For'
          : 'must be a number of proxy hops, or a comma-separated list of proxy addresses or networks (10.0.0.1, 10.0.0.0/8, loopback)',
    });
    return z.NEVER;
  });
