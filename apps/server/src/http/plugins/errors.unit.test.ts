import { errorCatalogue } from '@bytegate/contracts/errors';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../services/domain-error.ts';
import { toHttpAnswer } from './errors.ts';

describe('how HTTP answers a domain error', () => {
  it("answers the catalogue's status with { error, code } and the details merged in", () => {
    const refusal = new DomainError('INSUFFICIENT_BALANCE', 'Insufficient balance', {
      required: 10,
      current: 2.5,
    });
    expect(toHttpAnswer(refusal)).toEqual({
      statusCode: 400,
      body: { error: 'Insufficient balance', code: 'INSUFFICIENT_BALANCE', required: 10, current: 2.5 },
      retryAfter: undefined,
    });
  });

  it('gives every code of the catalogue its own status', () => {
    for (const [code, status] of Object.entries(errorCatalogue)) {
      const answer = toHttpAnswer(new DomainError(code as keyof typeof errorCatalogue, 'x'));
      expect(answer.statusCode).toBe(status);
    }
  });

  it('rounds Retry-After up to whole seconds, never below 1', () => {
    const wait = (seconds: number) =>
      toHttpAnswer(new DomainError('RATE_LIMITED', 'wait', undefined, { retryAfterSeconds: seconds }))
        .retryAfter;
    expect(wait(2.1)).toBe('3');
    expect(wait(0)).toBe('1');
    expect(wait(40)).toBe('40');
  });
});
