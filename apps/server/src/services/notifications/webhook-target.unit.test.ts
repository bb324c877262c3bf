import { notificationMessages } from '@bytegate/contracts/notifications';
import { describe, expect, it } from 'vitest';
import { postWebhook } from './post-webhook.ts';
import { checkWebhookHost } from './webhook-target.ts';

// Address literals only: no name is resolved and no packet is sent (each is refused before connecting).
describe('webhooks refuse the IPv6 forms that reach a private IPv4 address', () => {
  const refused = [
    'http://[64:ff9b::a00:1]/hook',
    'http://[64:ff9b::169.254.169.254]/hook',
    'http://[64:ff9b:1::808:808]/hook',
    'http://[2002:7f00:1::1]/hook',
    'http://[::127.0.0.1]/hook',
    'http://[::ffff:0:a00:1]/hook',
    'http://[fec0::1]/hook',
    'http://[2001::1]/hook',
  ];

  it.each(refused)('%s cannot be set as the webhook', async (url) => {
    expect(await checkWebhookHost(url, false)).toBe(notificationMessages.webhookUrlPrivate);
  });

  it.each(refused)('%s is refused by a delivery before it connects', async (url) => {
    const result = await postWebhook({ url, body: '{}', headers: {}, allowPrivateTargets: false });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^Refused: .* is a private, loopback or link-local address/);
  });

  it('a NAT64 or 6to4 form of a public address is allowed', async () => {
    expect(await checkWebhookHost('http://[64:ff9b::808:808]/hook', false)).toBeNull();
    expect(await checkWebhookHost('http://[2002:808:808::1]/hook', false)).toBeNull();
  });
});
