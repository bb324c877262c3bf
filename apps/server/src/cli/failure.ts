import { inspect } from 'node:util';
import { CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { DomainError } from '../services/domain-error.ts';

/**
 * How a command that failed ends: what goes to stderr (null when Commander has printed it already) and
 * the exit status. A use case's refusal reads like Commander's own argument errors: `error: <message>`.
 */
export function describeFailure(error: unknown): { message: string | null; exitCode: number } {
  if (error instanceof CommanderError) {
    return { message: null, exitCode: error.exitCode };
  }
  if (error instanceof DomainError) {
    return { message: `error: ${error.message}`, exitCode: 1 };
  }
  if (error instanceof ConfigError) {
    return { message: error.message, exitCode: 1 };
  }
  if (error instanceof Error) {
    return { message: error.message, exitCode: 1 };
  }
  // As console.error would print the thrown value itself.
  return { message: typeof error === 'string' ? error : inspect(error), exitCode: 1 };
}
