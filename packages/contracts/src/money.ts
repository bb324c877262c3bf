/**
 * Money: amounts are integer cents everywhere inside Bytegate; these are the only conversions to and
 * from dollars. Pure (no Node modules, no zod), for the web app, the server and the payment providers.
 */

/** Integer cents to a dollar number for JSON answers: 499 is 4.99 (exact for any cents below 2^53). */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** Cents as a two-decimal string, as payment providers take amounts: 2500 is '25.00'. */
export function centsToDecimal(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Cents as people read dollars: 499 is '$4.99' (no thousands separator: 123456 is '$1234.56'). */
export function formatUsd(cents: number): string {
  return `$${centsToDecimal(cents)}`;
}

/** Cents as a document shows dollars, with thousands separators: 123456 is '$1,234.56' (invoices). */
export function formatUsdGrouped(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * A decimal amount from a payment provider ('25.00', '25.009' or the number 25) to cents, rounding
 * down past two decimals; null when it is not an unsigned decimal or not a safe integer of cents.
 */
export function decimalToCents(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match?.[1]) {
    return null;
  }
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').slice(0, 2).padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * A dollar amount a person typed ('12.50', '-3', '+0.99') to signed cents: at most 9 digits of dollars
 * and 2 decimals, nothing rounded; null when it is not such an amount.
 */
export function parseDollarsToCents(text: string): number | null {
  const match = /^([+-]?)(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) {
    return null;
  }
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0') || 0);
  return match[1] === '-' ? -cents : cents;
}
