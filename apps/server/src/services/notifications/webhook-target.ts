import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { notificationMessages } from '@bytegate/contracts/notifications';
import { isPrivateAddress } from '@bytegate/gateway';

/**
 * Why a webhook's host cannot be used, or null: it must resolve, and (unless private targets are
 * allowed) to public addresses only. Every delivery checks the address it connects to again.
 */
export async function checkWebhookHost(url: string, allowPrivateTargets: boolean): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch {
      return notificationMessages.webhookUrlUnresolvable;
    }
  }
  if (!allowPrivateTargets && addresses.some((address) => isPrivateAddress(address))) {
    return notificationMessages.webhookUrlPrivate;
  }
  return null;
}
