import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { GatewayError } from '../errors.ts';
import { checkAddress, checkHost, checkPort, type TargetPolicy, type Unblocks } from './target-policy.ts';

export interface Target {
  host: string;
  port: number;
}

/** Resolves the target once and checks the address we will really connect to (no DNS rebinding). */
export async function resolveTarget(
  policy: TargetPolicy,
  target: Target,
  unblocks?: Unblocks,
): Promise<string> {
  checkPort(policy, target.port, unblocks);
  checkHost(policy, target.host, unblocks);
  let address = target.host.replace(/^\[|\]$/g, '');
  if (isIP(address) === 0) {
    try {
      address = (await lookup(address)).address;
    } catch {
      throw new GatewayError('NO_HOST_CONNECTION', `Cannot resolve ${target.host}`);
    }
  }
  checkAddress(policy, address);
  return address;
}
