import { errorCatalogue } from '@bytegate/contracts/errors';
import { messages } from '@bytegate/contracts/messages';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError } from '../../services/domain-error.ts';

const LOGGED_REFUSALS = new Set(['RATE_LIMITED', 'CSRF_FAILED', 'SERVER_BUSY']);

/**
 * Maps every failure to `{ error, code }` with the catalogue's status, so a client never sees
 * Fastify's own error shape, a stack trace or HTML.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isRequestStreamError(error, request.raw)) {
      // The client went away while sending its body (its socket reset: ECONNRESET "aborted"). Nothing
      // failed here, the database least of all: logged quietly, and answered (if anyone still listens)
      // as the incomplete body it is.
      request.log.info(
        { route: request.routeOptions.url, reason: error.message },
        'request aborted by the client',
      );
      const answer = toHttpAnswer(new DomainError('INVALID_BODY', messages.invalidBody));
      return reply.status(answer.statusCode).send(answer.body);
    }
    const refusal = toDomainError(error);
    if (refusal.code === 'INTERNAL_ERROR') {
      request.log.error({ err: error }, 'unhandled error');
    } else if (refusal.code === 'DATABASE_UNAVAILABLE') {
      request.log.warn({ route: request.routeOptions.url, reason: error.message }, 'database unavailable');
    } else if (LOGGED_REFUSALS.has(refusal.code)) {
      // What an operator watches for: guessing, forged requests and overload (never a body or a secret).
      request.log.info(
        { code: refusal.code, ip: request.ip, route: request.routeOptions.url },
        refusal.message,
      );
    }
    const answer = toHttpAnswer(refusal);
    if (answer.retryAfter !== undefined) {
      reply.header('retry-after', answer.retryAfter);
    }
    return reply.status(answer.statusCode).send(answer.body);
  });
});

/** How HTTP answers a domain error: the catalogue's status, `{ error, code, ...details }`, Retry-After. */
export function toHttpAnswer(error: DomainError): {
  statusCode: number;
  body: Record<string, unknown>;
  retryAfter: string | undefined;
} {
  return {
    statusCode: errorCatalogue[error.code],
    body: { error: error.message, code: error.code, ...error.details },
    retryAfter:
      error.retryAfterSeconds === undefined
        ? undefined
        : String(Math.max(1, Math.ceil(error.retryAfterSeconds))),
  };
}

// Connection-level failures of PostgreSQL: the network, the pool's bounded waits, and the server's
// own "not now" answers (SQLSTATE class 08, admin shutdown, starting up, too many connections).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/i;

/**
 * Whether the error is the request's own stream failing (the client aborted its body), told apart by
 * origin, not by code: a client's reset and the database's both say ECONNRESET.
 */
export function isRequestStreamError(error: unknown, stream: { errored?: Error | null }): boolean {
  const streamError = stream.errored;
  if (!streamError) {
    return false;
  }
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current === streamError) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether an error (or one of its causes) says the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) ||
      UNAVAILABLE_MESSAGES.test(current.message)
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Any failure as the domain error it stands for; what is not one is an INTERNAL_ERROR. */
function toDomainError(error: FastifyError): DomainError {
  if (error instanceof DomainError) {
    return error;
  }
  if (isDatabaseUnavailable(error)) {
    return new DomainError('DATABASE_UNAVAILABLE', messages.databaseUnavailable, undefined, {
      retryAfterSeconds: 5,
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [first] = error.validation;
    return new DomainError('VALIDATION_FAILED', first?.message ?? 'The request is not valid');
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('BODY_TOO_LARGE', messages.bodyTooLarge);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('INVALID_BODY', messages.invalidBody);
    default:
      break;
  }
  if (error.statusCode === 429) {
    return new DomainError('RATE_LIMITED', error.message);
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new DomainError('INVALID_BODY', messages.invalidBody);
  }
  return new DomainError('INTERNAL_ERROR', messages.internalError);
}
