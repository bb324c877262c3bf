import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error.ts';
import { WorkQueue } from './password-work.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('WorkQueue', () => {
  it('runs at most its concurrency, queues up to its bound, refuses beyond it, and passes slots on', async () => {
    const queue = new WorkQueue(2, 2, 3);
    const gates = Array.from({ length: 4 }, deferred);
    const order: number[] = [];
    const jobs = gates.map((gate, i) =>
      queue.run(async () => {
        order.push(i);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(queue.load).toEqual({ active: 2, waiting: 2 });
    expect(order).toEqual([0, 1]);

    const refused = await queue.run(async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'SERVER_BUSY', retryAfterSeconds: 3 });

    gates[0]?.resolve();
    await jobs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([0, 1, 2]);
    expect(queue.load).toEqual({ active: 2, waiting: 1 });
    for (const gate of gates) {
      gate.resolve();
    }
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3]);
    expect(queue.load).toEqual({ active: 0, waiting: 0 });
  });

  it('frees its slot when a job fails', async () => {
    const queue = new WorkQueue(1, 0);
    await expect(queue.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run(async () => 'next')).toBe('next');
  });
});
