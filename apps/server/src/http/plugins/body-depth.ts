import { Transform } from 'node:stream';
import { messages } from '@bytegate/contracts/messages';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../services/domain-error.ts';

/**
 * How deep a JSON body may nest. The API's own bodies nest 3 levels at most and the providers'
 * webhooks a few more; a deeper one is an attack on whatever walks it recursively (JSON.stringify
 * threw RangeError on a webhook body 5,000 levels deep: a 500).
 */
export const MAX_BODY_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * A scanner fed a JSON text in pieces, as bytes: answers false as soon as arrays and objects nest
 * deeper than `maxDepth`. Brackets inside strings do not count. UTF-8 is safe to scan byte by byte:
 * every byte of a multi-byte character is 0x80 or above. Malformed JSON is left to the parser.
 */
export function createDepthScanner(maxDepth: number): (chunk: Uint8Array) => boolean {
  let depth = 0;
  let isInString = false;
  let isEscaped = false;
  return (chunk) => {
    for (const byte of chunk) {
      if (isInString) {
        if (isEscaped) {
          isEscaped = false;
        } else if (byte === BACKSLASH) {
          isEscaped = true;
        } else if (byte === QUOTE) {
          isInString = false;
        }
      } else if (byte === QUOTE) {
        isInString = true;
      } else if (OPENERS.has(byte)) {
        depth += 1;
        if (depth > maxDepth) {
          return false;
        }
      } else if (CLOSERS.has(byte)) {
        depth -= 1;
      }
    }
    return true;
  };
}

/**
 * Refuses a JSON body nested deeper than MAX_BODY_DEPTH with 400 INVALID_BODY, while it streams in and
 * before any parser sees it, so that the check covers every route, the webhooks that read JSON as
 * text included.
 */
export const bodyDepthPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (!/json/i.test(request.headers['content-type'] ?? '')) {
      return payload;
    }
    const isWithinDepth = createDepthScanner(MAX_BODY_DEPTH);
    const guarded = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (isWithinDepth(chunk)) {
          callback(null, chunk);
        } else {
          callback(new DomainError('INVALID_BODY', messages.bodyTooDeep));
        }
      },
    });
    payload.on('error', (error) => guarded.destroy(error));
    // Fastify stops listening to the body once it has refused it (over the route's size limit): an
    // error raised after that must not become an uncaught exception that ends the process.
    guarded.on('error', () => undefined);
    return payload.pipe(guarded);
  });
});
