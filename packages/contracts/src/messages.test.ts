import { describe, expect, it } from 'vitest';
import { waitMessages, waitText } from './messages.ts';

describe('waitText', () => {
  it('says seconds under a minute and whole minutes after, always rounding up', () => {
    expect(waitText(0)).toBe('1 second');
    expect(waitText(0.2)).toBe('1 second');
    expect(waitText(1)).toBe('1 second');
    expect(waitText(1.01)).toBe('2 seconds');
    expect(waitText(59)).toBe('59 seconds');
    expect(waitText(59.5)).toBe('1 minute');
    expect(waitText(60)).toBe('1 minute');
    expect(waitText(61)).toBe('2 minutes');
    expect(waitText(14 * 60 + 1)).toBe('15 minutes');
    expect(waitText(15 * 60)).toBe('15 minutes');
  });

  it('puts the wait into the refusals', () => {
    expect(waitMessages.tooManyLoginAttempts(840)).toBe(
      'Too many failed sign-in attempts. Please try again in 14 minutes.',
    );
    expect(waitMessages.tooManyPasswordAttempts(30)).toBe(
      'Too many password attempts. Please try again in 30 seconds.',
    );
  });
});
