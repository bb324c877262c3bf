import { type ErrorCode, errorCatalogue } from '@bytegate/contracts/errors';

/** An error meant for the client: its code fixes the status, its message is shown to a person. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  /** Extra fields merged into the error body (e.g. `required` and `current` for a balance error). */
  readonly details: Record<string, unknown> | undefined;
  /** Sent as `Retry-After` (429 and 503 answers): when trying again can work. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = errorCatalogue[code];
    this.details = details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
