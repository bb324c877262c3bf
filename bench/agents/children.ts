// The bench's child processes: each started through `sh -c 'ulimit -n ...; exec node ...'` (so the
// descriptor limit is raised for it alone, and the pid stays node's), in its own process group, with an
// IPC channel on which it answers requests ({id, ...} in, {id, ...} out) and tells its progress.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The descriptor limit asked for each child (the hard limit when that is lower). */
const WANTED_FDS = 65_536;
const RAISE_FDS = `ulimit -n ${WANTED_FDS} 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null`;

/** The descriptor limit a child gets after RAISE_FDS. */
export function childFdLimit(): number {
  const result = spawnSync('sh', ['-c', `${RAISE_FDS}; ulimit -n`], { encoding: 'utf8' });
  const text = result.stdout.trim();
  return text === 'unlimited' ? WANTED_FDS : Number(text) || 1024;
}

export interface Child {
  process: ChildProcess;
  /** What the child sent first: its ports, or that it is ready. */
  ready: Record<string, unknown>;
  request<T>(message: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Messages the child sends unasked (progress). */
  onNote(listener: (note: Record<string, unknown>) => void): void;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) {
    killGroup(child);
  }
});

function killGroup(child: ChildProcess): void {
  if (child.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Starts `node --expose-gc --import tsx <script> <args>` and waits for its first message. */
export async function startChild(script: string, args: string[], withinMs = 60_000): Promise<Child> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(
    'sh',
    [
      '-c',
      `${RAISE_FDS}; exec "$@"`,
      'sh',
      process.execPath,
      '--expose-gc',
      '--import',
      'tsx',
      path,
      ...args,
    ],
    { stdio: ['ignore', 'inherit', 'pipe', 'ipc'], detached: true },
  );
  running.add(child);
  let errors = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    errors = `${errors}${text}`.slice(-4000);
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const noteListeners: Array<(note: Record<string, unknown>) => void> = [];
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    running.delete(child);
    for (const waiter of pending.values()) {
      waiter.reject(new Error(`${script} exited (${code ?? signal}): ${errors.trim().slice(-600)}`));
    }
    pending.clear();
  });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`${script} was not ready within ${withinMs / 1000} s: ${errors.trim().slice(-600)}`));
    }, withinMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as Record<string, unknown>);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}): ${errors.trim().slice(-600)}`));
    });
  });
  child.on('message', (raw) => {
    const message = raw as Record<string, unknown>;
    const waiter = typeof message.id === 'number' ? pending.get(message.id) : undefined;
    if (waiter) {
      pending.delete(message.id as number);
      if (typeof message.error === 'string') {
        waiter.reject(new Error(`${script}: ${message.error}`));
      } else {
        waiter.resolve(message);
      }
      return;
    }
    for (const listener of noteListeners) {
      listener(message);
    }
  });
  return {
    process: child,
    ready,
    request: <T>(message: Record<string, unknown>, timeoutMs = 600_000) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${script} did not answer ${JSON.stringify(message)} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value as T);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        child.send({ ...message, id });
      }),
    onNote: (listener) => {
      noteListeners.push(listener);
    },
    stop: async () => {
      killGroup(child);
      await exited;
    },
  };
}

/** Answers requests in a child: `handle` gets each message and returns what to send back. */
export function serveRequests(handle: (message: Record<string, unknown>) => Promise<unknown>): void {
  process.on('message', (raw) => {
    const message = raw as Record<string, unknown>;
    handle(message).then(
      (answer) => process.send?.({ ...(answer as object), id: message.id }),
      (error: unknown) =>
        process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The parent gone (killed, or its test ended): this child goes too.
  process.once('disconnect', () => process.exit(0));
}

/** Heap and RSS after full collections (the child runs with --expose-gc). */
export async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return process.memoryUsage();
}
