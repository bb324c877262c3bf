import type { ErrorCode } from '@bytegate/contracts/errors';

/**
 * A refusal a use case decides: a code from the contracts' catalogue and a message a person can read.
 * It knows nothing of its transport: the HTTP error plugin answers it with the catalogue's status, the
 * `bytegate` CLI prints it and exits 1.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  /** Extra fields for the answer (e.g. `required` and `current` for a balance error, `field`). */
  readonly details: Record<string, unknown> | undefined;
  /** When trying again can work (rate limits, overload); HTTP sends it as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
