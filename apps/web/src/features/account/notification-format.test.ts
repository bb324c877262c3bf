import { describe, expect, it } from 'vitest';
import { deliveryStatus, kindLabel, lastAnswer, parseLowBalance } from './notification-format.ts';

const FORMAT =
  'The low-balance amount is a dollar figure above 0 and at most $1,000,000, with up to 2 decimals.';

describe('the notification settings form', () => {
  it('reads a low-balance amount as typed, or says what is wrong', () => {
    expect(parseLowBalance('')).toEqual({ value: null });
    expect(parseLowBalance('  ')).toEqual({ value: null });
    expect(parseLowBalance('10')).toEqual({ value: 10 });
    expect(parseLowBalance('$12.5')).toEqual({ value: 12.5 });
    expect(parseLowBalance('1,000.25')).toEqual({ value: 1000.25 });
    for (const bad of ['0', '0.00', '-5', '1.234', 'ten', '1e3', '1000001', '.5']) {
      expect(parseLowBalance(bad), bad).toEqual({ error: FORMAT });
    }
  });

  it('names a delivery’s state and its last answer', () => {
    const attempt = { attemptedAt: '', responseBody: null, durationMs: 5 };
    expect(deliveryStatus({ status: 'delivered', attempts: [] })).toEqual({
      label: 'Delivered',
      tone: 'success',
    });
    expect(deliveryStatus({ status: 'failed', attempts: [] })).toEqual({ label: 'Failed', tone: 'danger' });
    expect(deliveryStatus({ status: 'pending', attempts: [] }).label).toBe('Queued');
    expect(
      deliveryStatus({ status: 'pending', attempts: [{ ...attempt, statusCode: 500, error: null }] }).label,
    ).toBe('Retrying');
    expect(lastAnswer({ attempts: [] })).toBe('Not sent yet');
    expect(lastAnswer({ attempts: [{ ...attempt, statusCode: 503, error: 'x' }] })).toBe('HTTP 503');
    expect(
      lastAnswer({ attempts: [{ ...attempt, statusCode: null, error: 'The connection was refused.' }] }),
    ).toBe('The connection was refused.');
    expect(kindLabel('auto_buy_failed')).toBe('Auto-buy failed');
    expect(kindLabel('test')).toBe('Test event');
    expect(kindLabel('some_new_kind')).toBe('Some new kind');
  });
});
