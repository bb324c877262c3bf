import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '@bytegate/gateway';

/** What a receiver answered to one POST, or why none came. */
export interface WebhookPostResult {
  statusCode: number | null;
  /** The start of the answer's body (at most 2 KiB, as text). */
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

/** The whole exchange of one POST (DNS, connect, TLS, sending, the answer's head and body) ends by then. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_LIMIT = 2048;

export interface PostWebhookProps {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS: tests and local development only. */
  allowPrivateTargets: boolean;
  /** The deadline of the whole exchange (WEBHOOK_TIMEOUT_MS unless a test shortens it). */
  timeoutMs?: number;
}

class RefusedAddressError extends Error {}

/**
 * POSTs one delivery. The host is resolved here and the address checked before connecting (also when
 * the URL names an address), so a customer's webhook never reaches a private, loopback, link-local or
 * metadata address, however its DNS answers; the socket connects to the very address checked.
 * Redirects are not followed (a 3xx is a failure: the receiver must answer 2xx itself). Never throws.
 *
 * The deadline is absolute, not idle: an AbortSignal started before the lookup ends the exchange at
 * `timeoutMs` whatever stage it is in, so a receiver dripping its answer a byte at a time cannot hold a
 * delivery (and the slot it takes) longer. An answer cut by the deadline is a failure, even after a
 * 2xx status line: the receiver must answer in full within it.
 */
export function postWebhook(props: PostWebhookProps): Promise<WebhookPostResult> {
  const started = performance.now();
  const finish = (result: Omit<WebhookPostResult, 'durationMs'>): WebhookPostResult => ({
    ...result,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(props.url);
  } catch {
    return Promise.resolve(finish({ statusCode: null, responseBody: null, error: 'The URL is not valid.' }));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !props.allowPrivateTargets && isPrivateAddress(host)) {
    return Promise.resolve(finish({ statusCode: null, responseBody: null, error: refusedMessage(host) }));
  }
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const allowed = addresses.filter(
        (entry) => props.allowPrivateTargets || !isPrivateAddress(entry.address),
      );
      const first = allowed[0];
      if (!first) {
        callback(new RefusedAddressError(refusedMessage(addresses[0]?.address ?? hostname)), '', 0);
        return;
      }
      if (options.all) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, allowed);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const timeoutMs = props.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  return new Promise((resolve) => {
    let isDone = false;
    const done = (result: Omit<WebhookPostResult, 'durationMs'>) => {
      if (!isDone) {
        isDone = true;
        resolve(finish(result));
      }
    };
    let answered: { statusCode: number | null; body: () => string } | null = null;
    // Registered before the request's own listener, so the deadline's result is the one kept.
    deadline.addEventListener(
      'abort',
      () => {
        const seconds = timeoutMs / 1000;
        done(
          answered
            ? {
                statusCode: answered.statusCode,
                responseBody: answered.body(),
                error: `The answer did not finish within ${seconds} s.`,
              }
            : { statusCode: null, responseBody: null, error: `No answer within ${seconds} s.` },
        );
      },
      { once: true },
    );
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...props.headers, 'content-length': String(Buffer.byteLength(props.body)) },
        lookup,
        agent: false,
        signal: deadline,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const body = () => Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        answered = { statusCode: response.statusCode ?? null, body };
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) {
            chunks.push(chunk);
            size += chunk.length;
          }
          if (size >= RESPONSE_BODY_LIMIT) {
            response.destroy();
          }
        });
        const answer = () =>
          done({ statusCode: response.statusCode ?? null, responseBody: body(), error: null });
        response.on('end', answer);
        response.on('close', answer);
        response.on('error', answer);
      },
    );
    request.on('error', (error) => done({ statusCode: null, responseBody: null, error: describe(error) }));
    request.end(props.body);
  });
}

function refusedMessage(address: string): string {
  return `Refused: ${address} is a private, loopback or link-local address, which webhooks cannot reach.`;
}

/** A network error in words a customer can act on. */
function describe(error: Error & { code?: string }): string {
  if (error instanceof RefusedAddressError) {
    return error.message;
  }
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name could not be resolved.';
    case 'ECONNREFUSED':
      return 'The connection was refused.';
    case 'ECONNRESET':
      return 'The connection was reset before an answer came.';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host could not be reached.';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `The TLS certificate was refused (${error.code}).`;
    default:
      return error.message || 'The request failed.';
  }
}
