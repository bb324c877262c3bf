import type { Database } from '@bytegate/db';
import { getActiveUserByEmail, setUserUnblocks } from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);

/** A domain as unblocks store it (lower-case, no trailing dot); null when it is not a domain name. */
export function parseUnblockHost(input: string): string | null {
  const host = input.trim().toLowerCase().replace(/\.$/, '');
  return DOMAIN.test(host) && !/^\d+(\.\d+)*$/.test(host) ? host : null;
}

export function parseUnblockPort(input: string): number | null {
  const port = /^\d{1,5}$/.test(input.trim()) ? Number(input.trim()) : Number.NaN;
  return port >= 1 && port <= 65535 ? port : null;
}

export interface Unblocked {
  ports: number[];
  hosts: string[];
}

/**
 * Adds or removes a customer's unblocked ports and hosts (support's tool; SPEC section 6). The running
 * gateway applies the change within about a second. Answers the customer's unblocks afterwards.
 */
export async function changeUnblocks(
  db: Database,
  params: { email: string; ports: number[]; hosts: string[]; remove: boolean },
): Promise<Unblocked> {
  return db.transaction(async (tx) => {
    const user = await getActiveUserByEmail(tx, { email: params.email.trim().toLowerCase() });
    if (!user) {
      throw new DomainError('NOT_FOUND', `No account has the email ${params.email}`);
    }
    const ports = new Set(user.unblockedPorts);
    const hosts = new Set(user.unblockedHosts);
    for (const port of params.ports) {
      params.remove ? ports.delete(port) : ports.add(port);
    }
    for (const host of params.hosts) {
      params.remove ? hosts.delete(host) : hosts.add(host);
    }
    const next = { ports: [...ports].sort((a, b) => a - b), hosts: [...hosts].sort() };
    if (params.ports.length > 0 || params.hosts.length > 0) {
      await setUserUnblocks(tx, { userId: user.id, ...next });
    }
    return next;
  });
}
