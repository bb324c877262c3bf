import { messages } from '@bytegate/contracts/messages';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../app-error.ts';

/**
 * Maps every failure to `{ error, code }` with the catalogue's status, so a client never sees
 * Fastify's own error shape, a stack trace or HTML.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === 'INTERNAL_ERROR') {
      request.log.error({ err: error }, 'unhandled error');
    }
    return reply
      .status(appError.statusCode)
      .send({ error: appError.message, code: appError.code, ...appError.details });
  });
});

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) {
    return error;
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [first] = error.validation;
    return new AppError('VALIDATION_FAILED', first?.message ?? 'The request is not valid');
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('BODY_TOO_LARGE', messages.bodyTooLarge);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('INVALID_BODY', messages.invalidBody);
    default:
      break;
  }
  if (error.statusCode === 429) {
    return new AppError('RATE_LIMITED', error.message || messages.tooManyRequests);
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new AppError('INVALID_BODY', messages.invalidBody);
  }
  return new AppError('INTERNAL_ERROR', messages.internalError);
}
