import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { isPrivateAddress } from './addresses.ts';
import type { TunnelRefusal } from './protocol.ts';

/**
 * Ports an agent never opens, whatever the hub asks: mail submission and relay (spam from a home
 * address gets the partner's line listed and cut off) and Windows file sharing (worms).
 */
export const AGENT_BLOCKED_PORTS: ReadonlySet<number> = new Set([25, 465, 587, 2525, 137, 138, 139, 445]);

export type GuardAnswer = { address: string; family: 4 | 6 } | { refusal: TunnelRefusal; detail: string };

/**
 * Where a tunnel may go from the partner's network: the agent resolves the host itself (so DNS answers
 * as it would for the partner's location), and refuses the whole name if any address it resolves to is
 * private, loopback, link-local or LAN, so neither a hostile name nor the hub can reach the partner's
 * router or devices. `allowPrivate` is for a lab only (a test origin on loopback): listed ranges pass.
 */
export class TargetGuard {
  private readonly allowed = new BlockList();
  private readonly hasAllowed: boolean;

  constructor(allowPrivate: readonly string[] = []) {
    for (const range of allowPrivate) {
      const parsed = parseCidr(range);
      if (!parsed) {
        throw new Error(`Not an address range: ${range} (write it as 127.0.0.10/32 or fd00::/64)`);
      }
      this.allowed.addSubnet(parsed.network, parsed.prefix, parsed.family === 4 ? 'ipv4' : 'ipv6');
    }
    this.hasAllowed = allowPrivate.length > 0;
  }

  /** Whether the address may be reached: public, or in a range the lab allowed. */
  mayReach(address: string): boolean {
    if (!isPrivateAddress(address)) {
      return true;
    }
    return this.hasAllowed && this.allowed.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }

  async check(host: string, port: number): Promise<GuardAnswer> {
    if (AGENT_BLOCKED_PORTS.has(port)) {
      return { refusal: 'blocked-port', detail: `port ${port} is never opened by agents` };
    }
    let addresses: Array<{ address: string; family: number }>;
    if (isIP(host) !== 0) {
      addresses = [{ address: host, family: isIP(host) }];
    } else {
      try {
        addresses = await lookup(host, { all: true, verbatim: true });
      } catch (error) {
        return {
          refusal: 'dns',
          detail: `${host} did not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        };
      }
    }
    const blocked = addresses.find((entry) => !this.mayReach(entry.address));
    if (blocked || addresses.length === 0) {
      return { refusal: 'private-address', detail: `${host} is a private or local address` };
    }
    const first = addresses[0] as { address: string; family: number };
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}

function parseCidr(text: string): { network: string; prefix: number; family: 4 | 6 } | null {
  const [network = '', prefixText] = text.trim().split('/');
  const family = isIP(network);
  if (family === 0) {
    return null;
  }
  const max = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  return Number.isInteger(prefix) && prefix >= 0 && prefix <= max
    ? { network, prefix, family: family === 4 ? 4 : 6 }
    : null;
}
