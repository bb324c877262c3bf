import { describe, expect, it } from 'vitest';
import {
  describeAlert,
  describeAutoBuyStatus,
  parseAlertForm,
  parseAutoBuyForm,
} from './automation-format.ts';

describe('a plan’s alert and auto-buy forms', () => {
  it('reads an alert threshold, with the server’s messages', () => {
    expect(parseAlertForm('gb', '2.5')).toEqual({ body: { thresholdGb: 2.5 } });
    expect(parseAlertForm('percent', '90')).toEqual({ body: { thresholdPercent: 90 } });
    expect(parseAlertForm('gb', '')).toEqual({
      error: 'The GB left is a number above 0 and at most 100000, with up to 3 decimals.',
    });
    expect(parseAlertForm('gb', '1.2345')).toEqual({
      error: 'The GB left is a number above 0 and at most 100000, with up to 3 decimals.',
    });
    for (const bad of ['0', '100', '50.5', 'x']) {
      expect(parseAlertForm('percent', bad)).toEqual({
        error: 'The share used is a whole percentage from 1 to 99.',
      });
    }
  });

  it('reads an auto-buy with an error under each wrong field', () => {
    expect(parseAutoBuyForm({ thresholdGb: '1', quantityGb: '10', maxPerMonth: '3' }, true)).toEqual({
      body: { thresholdGb: 1, quantityGb: 10, maxPerMonth: 3, isEnabled: true },
    });
    expect(parseAutoBuyForm({ thresholdGb: '', quantityGb: '4', maxPerMonth: '0' }, true)).toEqual({
      errors: {
        thresholdGb:
          'Buy when the GB left falls under a number above 0 and at most 100000, with up to 3 decimals.',
        quantityGb: 'The minimum purchase is 5 GB',
        maxPerMonth: 'Buy at most a whole number of times a month, from 1 to 100.',
      },
    });
  });

  it('says what an alert and an auto-buy do now', () => {
    expect(describeAlert(null)).toBe('Off: no warning when traffic runs low.');
    expect(describeAlert({ thresholdGb: 2, thresholdPercent: null, isTriggered: false })).toBe(
      'Warns you under 2 GB left, once each time.',
    );
    expect(describeAlert({ thresholdGb: null, thresholdPercent: 90, isTriggered: true })).toMatch(
      /^Below the threshold now \(at 90% of the traffic used\)/,
    );
    const rule = {
      thresholdGb: 1,
      quantityGb: 5,
      maxPerMonth: 2,
      isEnabled: true,
      status: 'insufficient_balance' as const,
      boughtThisMonth: 0,
      lastRun: null,
    };
    expect(describeAutoBuyStatus(rule)).toEqual({ label: 'Waiting for balance', tone: 'danger' });
    expect(describeAutoBuyStatus({ ...rule, isEnabled: false }).label).toBe('Paused');
  });
});
