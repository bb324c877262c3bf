import { Console } from 'node:console';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import type { Config } from '../config.ts';
import { publishGatewayChangeOnce } from '../gateway/fleet/gateway-changes.ts';
import type { ServiceContext } from '../services/context.ts';

/**
 * What a back-office command runs with, wherever it runs. In a terminal (no server running, or the
 * server on PostgreSQL) it opens its own database connection and prints to the terminal; beside a
 * running server on the embedded database it runs inside that server, on the server's own database,
 * and what it prints goes back over the admin channel (see admin-channel.ts). A command never touches
 * `process` itself, so it behaves the same in both places.
 */
export interface CliContext {
  /** Where the command prints: the terminal's console, or one that buffers for the channel. */
  console: Console;
  /** Raw output, for Commander's help and argument errors. */
  writeOut(text: string): void;
  writeErr(text: string): void;
  /** The directory the command was typed in: file arguments resolve against it. */
  cwd: string;
  /** Runs `work` with the use cases' context: the command's own database, or the running server's. */
  withServices<T>(work: (ctx: ServiceContext) => Promise<T>): Promise<T>;
  /** Reports a refusal the way Commander reports a bad argument, and makes the command exit with 1. */
  fail(message: string): void;
  /**
   * Makes the command exit with `code` though it did its work: an outcome a script acts on, such as
   * reconciled days over the tolerance. A failure's 1 stands.
   */
  exitWith(code: number): void;
  /** The exit status so far (0 unless `fail` or `exitWith` was called). */
  readonly exitCode: number;
}

/** A context whose output is kept in memory: the running server's side of a forwarded command. */
export function bufferedCliContext(options: {
  cwd: string;
  services: ServiceContext;
}): CliContext & { stdout(): string; stderr(): string } {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (chunks: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
  const console = new Console({ stdout: sink(out), stderr: sink(err), colorMode: false });
  let exitCode = 0;
  return {
    console,
    writeOut: (text) => out.push(text),
    writeErr: (text) => err.push(text),
    cwd: options.cwd,
    withServices: (work) => work(options.services),
    fail(message) {
      console.error(`error: ${message}`);
      exitCode = 1;
    },
    exitWith(code) {
      exitCode = exitCode === 0 ? code : exitCode;
    },
    get exitCode() {
      return exitCode;
    },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

/** A context for a command run in a terminal, opening the configured database for each use. */
export function terminalCliContext(options: {
  config: () => Config;
  open: (config: Config) => Promise<{ services: ServiceContext; close(): Promise<void> }>;
}): CliContext {
  let exitCode = 0;
  return {
    console: globalThis.console,
    writeOut: (text) => process.stdout.write(text),
    writeErr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    async withServices(work) {
      const config = options.config();
      const opened = await options.open(config);
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work(opened.services);
      } finally {
        await opened.close();
      }
      // Gateways beside this command learn of what it changed at once (their refresh is the fallback).
      if (config.redisUrl) {
        await publishGatewayChangeOnce(config.redisUrl, config.redisPrefix, 'back-office command');
      }
      return result;
    },
    fail(message) {
      globalThis.console.error(`error: ${message}`);
      exitCode = 1;
    },
    exitWith(code) {
      exitCode = exitCode === 0 ? code : exitCode;
    },
    get exitCode() {
      return exitCode;
    },
  };
}

/** A file argument as the person typing meant it: relative to where they typed it. */
export function resolveFrom(cli: CliContext, file: string): string {
  return resolve(cli.cwd, file);
}
