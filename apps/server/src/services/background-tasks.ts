import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts and does not wait for: a use case whose answer must not depend on it (the
 * password reset answers the same, in the same time, whether or not an account exists, so its lookup
 * and its mail happen after the reply) or must not be held up by it (a sign-up by the SMTP round trip
 * of its verification mail). A task starts once the current turn of the event loop is over, so the
 * reply is on its way first; a failure is logged, never thrown. `idle()` waits for every task, which
 * the app does on close (and tests do before they look at what was sent).
 */
export class BackgroundTasks {
  readonly #pending = new Set<Promise<void>>();
  readonly #log: Pick<FastifyBaseLogger, 'error'> | undefined;

  constructor(log?: Pick<FastifyBaseLogger, 'error'>) {
    this.#log = log;
  }

  run(what: string, task: () => Promise<unknown>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .then(
        () => undefined,
        (error: unknown) => {
          this.#log?.error({ err: error, task: what }, `${what} failed`);
        },
      )
      .finally(() => {
        this.#pending.delete(done);
      });
    this.#pending.add(done);
  }

  /** Resolves once no task is running (tasks that start others are waited for too). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) {
      await Promise.all(this.#pending);
    }
  }
}

/**
 * Runs `task` after the reply when the context has background tasks (the HTTP app's), or now, awaited,
 * when it has none (a use case run on its own).
 */
export async function runAfterReply(
  ctx: { background?: BackgroundTasks | undefined },
  what: string,
  task: () => Promise<unknown>,
): Promise<void> {
  if (ctx.background) {
    ctx.background.run(what, task);
    return;
  }
  await task();
}
