import { z } from 'zod';
import { reasonField } from './admin.ts';
import { text } from './text.ts';

// A customer's unblocks (SPEC section 6): target ports and blocked-category domains support opens for
// one customer. The rules live here once, for `bytegate unblock`, the console and its API.

/** Ports or domains one request may open or close at once. */
export const MAX_UNBLOCKS_PER_CHANGE = 20;

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

export const unblockPortMessage = 'Port must be a whole number from 1 to 65535';
export const unblockHostMessage =
  'Domain must be a domain name like example.com (it covers every name under it)';

/** `POST /api/admin/customers/:userId/unblocks`: open (or, with `remove`, close) ports and domains. */
export const changeUnblocksRequestSchema = z
  .object({
    ports: z
      .array(
        z
          .number({ error: unblockPortMessage })
          .int(unblockPortMessage)
          .min(1, unblockPortMessage)
          .max(65535, unblockPortMessage),
      )
      .max(MAX_UNBLOCKS_PER_CHANGE)
      .default([]),
    hosts: z
      .array(
        text('Domain', { error: unblockHostMessage })
          .max(254, unblockHostMessage)
          .refine((value) => parseUnblockHost(value) !== null, { message: unblockHostMessage })
          .transform((value) => parseUnblockHost(value) ?? value),
      )
      .max(MAX_UNBLOCKS_PER_CHANGE)
      .default([]),
    remove: z.boolean().default(false),
    reason: reasonField,
  })
  .refine((body) => body.ports.length + body.hosts.length > 0, {
    message: 'Give a port or a domain to open or close',
  });
export type ChangeUnblocksRequest = z.input<typeof changeUnblocksRequestSchema>;
