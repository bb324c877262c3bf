import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { DomainError } from '../services/domain-error.ts';
import { describeFailure } from './failure.ts';

describe('how a failed command ends', () => {
  it("prints a use case's refusal as `error: <message>` and exits 1, whatever its code", () => {
    expect(describeFailure(new DomainError('NOT_FOUND', 'No account has the email a@b.c'))).toEqual({
      message: 'error: No account has the email a@b.c',
      exitCode: 1,
    });
    expect(describeFailure(new DomainError('INSUFFICIENT_BALANCE', 'would take it below zero'))).toEqual({
      message: 'error: would take it below zero',
      exitCode: 1,
    });
  });

  it("leaves Commander's own messages to Commander and keeps its exit status", () => {
    const help = new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)');
    expect(describeFailure(help)).toEqual({ message: null, exitCode: 0 });
  });

  it('prints a bad setting and any other failure as its message', () => {
    expect(describeFailure(new ConfigError('PORT must be a port number'))).toEqual({
      message: 'PORT must be a port number',
      exitCode: 1,
    });
    expect(describeFailure(new Error('disk full'))).toEqual({ message: 'disk full', exitCode: 1 });
  });
});
