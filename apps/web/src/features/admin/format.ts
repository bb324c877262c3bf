import { BYTES_PER_GB } from '@bytegate/contracts/constants';

// How the console writes money, traffic and time: one formatter each, so every screen reads the same.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const signedUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  signDisplay: 'exceptZero',
});
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const utcDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const integer = new Intl.NumberFormat('en-US');

/** Dollars as people read them: 1234.5 is '$1,234.50'. */
export const formatDollars = (dollars: number) => usd.format(dollars);

/** A signed amount of the ledger: 12.5 is '+$12.50', -3 is '-$3.00'. */
export const formatSignedDollars = (dollars: number) => signedUsd.format(dollars);

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => date.format(new Date(iso));
export const formatInteger = (value: number) => integer.format(value);
/** A UTC day ('2025-03-05') as people read it, wherever the browser is: 'Mar 5, 2025'. */
export const formatUtcDay = (day: string) => utcDay.format(new Date(`${day}T00:00:00Z`));

/** Bytes as gigabytes with two decimals: the unit customers buy. */
export const formatGb = (bytes: number) => `${(bytes / BYTES_PER_GB).toFixed(2)} GB`;

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** How long ago, in words: '5 minutes ago', 'yesterday'; under a minute is 'just now'. */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) {
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return 'just now';
}
