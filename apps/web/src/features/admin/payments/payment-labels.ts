import type { CheckTopupResponse, PaymentMethod } from '@bytegate/contracts/admin-payments';
import { formatDollars } from '../format.ts';

// How the payments page names providers, kinds and what a provider check said.

export const PROVIDER_LABELS: Record<PaymentMethod, string> = {
  cryptomus: 'Cryptomus',
  bitcart: 'Bitcart',
  balance: 'Balance',
};

export const KIND_LABELS = { topup: 'Top-up', purchase: 'Purchase' } as const;

const OUTCOMES: Record<CheckTopupResponse['provider']['outcome'], string> = {
  success: 'paid',
  partial: 'paid short',
  pending: 'not final yet',
  failed: 'not paid',
};

/** What the provider said and what applying it did, in one or two sentences. */
export function describeCheck(provider: string, answer: CheckTopupResponse): string {
  const said = answer.provider;
  const paid =
    said.paid !== null
      ? `, ${formatDollars(said.paid)} arrived`
      : said.payerPaid
        ? `, the payer sent ${said.payerPaid.amount} ${said.payerPaid.currency} (no USD amount)`
        : '';
  const heard = `${provider} says “${said.status}”: ${OUTCOMES[said.outcome]}${paid}.`;
  const done: Record<CheckTopupResponse['result'], string> = {
    credited: `Credited ${formatDollars(answer.payment.credited)}.`,
    failed: 'The order failed; nothing was credited.',
    review: 'Held for review: nobody can say in dollars what arrived.',
    pending: 'Still pending.',
    'already-settled': 'The order was settled before; nothing changed.',
    mismatch: 'That invoice does not match this order (number, amount or currency): nothing was done.',
  };
  return `${heard} ${done[answer.result]}`;
}
