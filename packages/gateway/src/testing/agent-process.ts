import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** An exit agent run as its own process (`bytegate-agent`), as a partner runs it. */
export interface AgentProcess {
  child: ChildProcess;
  /** Every line it printed so far (stdout and stderr). */
  lines: string[];
  /** The line it prints when the hub welcomes it. */
  whenOnline(timeoutMs?: number): Promise<string>;
  /** Resolves with its exit code once it ended. */
  exited: Promise<number | null>;
  /** Waits for a printed line matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

const cli = fileURLToPath(new URL('../../../agent/src/cli.ts', import.meta.url));

/**
 * Starts `bytegate-agent` with these arguments: its sources through tsx, as `npm run agent` does, or
 * `bundle`, the single file of `npm run agent:bundle`, with Node alone.
 */
export function startAgentProcess(args: string[], bundle?: string): AgentProcess {
  const entry = bundle ? [bundle] : ['--import', 'tsx', cli];
  const child = spawn(process.execPath, [...entry, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const onText = (text: string) => {
    for (const line of text.split('\n').filter(Boolean)) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  };
  child.stdout?.setEncoding('utf8').on('data', onText);
  child.stderr?.setEncoding('utf8').on('data', onText);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = 30_000) => {
    const seen = lines.find((line) => pattern.test(line));
    if (seen) {
      return Promise.resolve(seen);
    }
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`agent printed no line like ${pattern} in ${timeoutMs} ms:\n${lines.join('\n')}`)),
        timeoutMs,
      );
      waiters.push({
        pattern,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  };
  return {
    child,
    lines,
    whenOnline: (timeoutMs) => waitFor(/online as agent/, timeoutMs),
    exited,
    waitFor,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
      }
      return exited;
    },
  };
}
