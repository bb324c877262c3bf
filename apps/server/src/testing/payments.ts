import type { TestServer } from './test-server.ts';

export type SandboxOutcome = 'pay' | 'overpay' | 'underpay' | 'underpay-coin' | 'fail' | 'expire';

/**
 * Opens a top-up through the API and presses a button of the provider sandbox's checkout page, as a
 * payer would (reached at the server's real address, whatever PUBLIC_URL says). Answers the order's
 * number (BG-…). Whether the webhook arrives depends on the server's PUBLIC_URL.
 */
export async function payThroughSandbox(
  server: TestServer,
  token: string,
  options: { provider: 'cryptomus' | 'bitcart'; amount: number; outcome?: SandboxOutcome },
): Promise<string> {
  const invoice = await server.request<{ orderId: string; invoiceUrl: string }>(
    'POST',
    `/api/topup/${options.provider}/create-invoice`,
    { token, body: { amount: options.amount } },
  );
  if (invoice.status !== 201) {
    throw new Error(`create-invoice failed with ${invoice.status}: ${JSON.stringify(invoice.body)}`);
  }
  const path = new URL(invoice.body.invoiceUrl).pathname;
  const pressed = await fetch(`${server.url}${path}/${options.outcome ?? 'pay'}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  if (pressed.status !== 303) {
    throw new Error(`the sandbox checkout answered ${pressed.status}`);
  }
  return invoice.body.orderId;
}

/** The customer's own status poll, which re-reads the invoice from the provider and settles it. */
export async function pollTopup(
  server: TestServer,
  token: string,
  provider: 'cryptomus' | 'bitcart',
  orderId: string,
): Promise<{ orderStatus: string; balance: number }> {
  const path =
    provider === 'cryptomus'
      ? `/api/topup/cryptomus/status/${orderId}`
      : `/api/topup/bitcart/status?order_id=${orderId}&remote=1`;
  const answer = await server.request<{ orderStatus: string; balance: number }>('GET', path, { token });
  if (answer.status !== 200) {
    throw new Error(`status poll failed with ${answer.status}`);
  }
  return answer.body;
}
