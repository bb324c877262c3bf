import { messages } from '@bytegate/contracts/messages';
import { DomainError } from '../domain-error.ts';

/**
 * A bound on expensive work: at most `concurrency` jobs run at once, at most `maxWaiting` wait their
 * turn, and a job beyond that is refused at once with 503 SERVER_BUSY and a Retry-After, rather than
 * queued without end. Password hashing runs on libuv's small thread pool (4 threads by default), which
 * DNS lookups and file reads share with it: 16 clients guessing passwords had filled it and held the
 * gateway's CONNECT answers back for half a second each.
 */
export class WorkQueue {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    /** What a refused caller is told to wait, in seconds. */
    readonly retryAfterSeconds = 2,
  ) {}

  /** Jobs running now and jobs waiting (for tests and metrics). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new DomainError('SERVER_BUSY', messages.serverBusy, undefined, {
          retryAfterSeconds: this.retryAfterSeconds,
        });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) {
        next(); // the slot passes straight to the next job
      } else {
        this.active -= 1;
      }
    }
  }
}

/**
 * The process's password work (argon2 hashes and checks): two at a time, leaving half of libuv's
 * default pool to DNS and files, and 32 waiting at most (about half a second of work).
 */
export const passwordWork = new WorkQueue(2, 32);
