import type { OrderRow } from '@bytegate/db/queries';
import { describe, expect, it } from 'vitest';
import { clientTopupStatus } from './client-status.ts';

const order = (status: OrderRow['status']) => ({ status }) as OrderRow;

describe('the status the checkout dialog polls', () => {
  it('follows the settled order', () => {
    expect(clientTopupStatus(order('completed'), 'paid_over', 'lower')).toBe('completed');
    expect(clientTopupStatus(order('completed'), 'complete', 'upper')).toBe('COMPLETED');
    expect(clientTopupStatus(order('failed'), 'cancel', 'lower')).toBe('expired');
    expect(clientTopupStatus(order('failed'), 'expired', 'upper')).toBe('EXPIRED');
    expect(clientTopupStatus(order('failed'), 'invalid', 'upper')).toBe('FAILED');
    expect(clientTopupStatus(order('failed'), 'system_fail', 'lower')).toBe('failed');
  });

  it('reports an order held for review as neither success nor failure', () => {
    expect(clientTopupStatus(order('review'), 'wrong_amount', 'lower')).toBe('review');
    expect(clientTopupStatus(order('review'), 'expired', 'upper')).toBe('REVIEW');
  });

  it('never reports success for a payment that is seen but not final', () => {
    expect(clientTopupStatus(order('pending'), 'paid', 'upper')).toBe('CONFIRMING');
    expect(clientTopupStatus(order('pending'), 'confirmed', 'upper')).toBe('CONFIRMING');
    expect(clientTopupStatus(order('pending'), 'confirm_check', 'lower')).toBe('confirm_check');
    expect(clientTopupStatus(order('pending'), 'pending', 'upper')).toBe('PENDING');
  });
});
