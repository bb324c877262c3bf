import { isPrivateAddress } from 'bytegate-agent/addresses';
import { GatewayError } from '../errors.ts';
import { DEFAULT_BLOCKED_HOSTS, type DomainSet } from './blocked-hosts.ts';

export { embeddedIpv4, isPrivateAddress } from 'bytegate-agent/addresses';

/** Ports open by default (SPEC section 9); mail ports and everything else are refused unless unblocked. */
export const DEFAULT_OPEN_PORTS: ReadonlySet<number> = new Set([
  80, 443, 5228, 53, 5060, 8080, 8090, 8443, 853,
]);

export interface TargetPolicy {
  allowPrivateTargets: boolean;
  openPorts: ReadonlySet<number>;
  /** Domains refused by default (DEFAULT_BLOCKED_HOSTS unless a test says otherwise). */
  blockedHosts?: DomainSet;
}

/** What support has opened for one customer: extra ports, and blocked domains they may reach. */
export interface Unblocks {
  ports: ReadonlySet<number>;
  hosts: DomainSet;
}

export function checkPort(policy: TargetPolicy, port: number, unblocks?: Unblocks): void {
  if (!policy.openPorts.has(port) && !unblocks?.ports.has(port)) {
    throw new GatewayError('PORT_BLOCKED', `Port ${port} is closed by default; ask support to unblock it`);
  }
}

/** Checked on the name, before DNS, so a blocked name is never even resolved. */
export function checkHost(policy: TargetPolicy, host: string, unblocks?: Unblocks): void {
  const blocked = (policy.blockedHosts ?? DEFAULT_BLOCKED_HOSTS).match(host);
  if (blocked && !unblocks?.hosts.match(host)) {
    throw new GatewayError(
      'HOST_BLOCKED',
      `${blocked} is in a blocked category; ask support to unblock it for your account`,
    );
  }
}

/** Checked on the resolved address, so a name that points inside our network is refused too. */
export function checkAddress(policy: TargetPolicy, address: string): void {
  if (!policy.allowPrivateTargets && isPrivateAddress(address)) {
    throw new GatewayError('PRIVATE_TARGET', 'Private, loopback and link-local addresses cannot be reached');
  }
}
