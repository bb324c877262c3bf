import { isIPv4, isIPv6, type Socket } from 'node:net';
import { type Admitted, admit, knownCredentialsOf, rememberCredentials } from '../admission.ts';
import type { ClientSession } from '../client-session.ts';
import { countConnection } from '../counters.ts';
import { asGatewayError, countRefusal, type EngineContext, refuseWith } from '../engine-context.ts';
import { GatewayError, gatewayErrors } from '../errors.ts';
import { resolveTarget } from '../policy/resolve-target.ts';
import { ExitDialer } from '../supply/dialer.ts';
import { Deadlines } from '../tunnel/deadlines.ts';
import { endWith } from '../tunnel/end-with.ts';
import { relay } from '../tunnel/relay.ts';
import { parseCredentials, parseGreeting, parseRequest, type Socks5Parsed } from './socks5-messages.ts';

/**
 * A client must have sent its whole handshake (greeting, credentials, request) this long after
 * connecting, or it is dropped: an absolute deadline, so a client dripping a byte at a time cannot hold
 * the connection (each byte would reset an idle timer).
 */
export const HANDSHAKE_DEADLINE_MS = 10_000;
/** A handshake is under 1 KiB; past this, early data waits in the kernel (backpressure), not in memory. */
const MAX_BUFFERED = 64 * 1024;

const METHOD_NONE = 0x00;
const METHOD_USERPASS = 0x02;
const NO_ACCEPTABLE_METHOD = Buffer.from([0x05, 0xff]);
const AUTH_OK = Buffer.from([0x01, 0x00]);
const AUTH_FAILED = Buffer.from([0x01, 0x01]);
const CHOSE_USERPASS = Buffer.from([0x05, METHOD_USERPASS]);
const CHOSE_NONE = Buffer.from([0x05, METHOD_NONE]);
/** Every handshake's deadline on one timer (not one per connection). */
const handshakeDeadlines = new Deadlines<Socket>(HANDSHAKE_DEADLINE_MS, (socket) => socket.destroy());
function destroySocket(this: Socket): void {
  this.destroy();
}
function clearHandshakeDeadline(this: Socket): void {
  handshakeDeadlines.delete(this);
}
const REP_GENERAL_FAILURE = 0x01;
const REP_NOT_ALLOWED = 0x02;
const REP_COMMAND_NOT_SUPPORTED = 0x07;
const REP_ADDRESS_NOT_SUPPORTED = 0x08;

/** A REP reply: the code, and the bound address the exit connected from (zeros on a refusal). */
function reply(rep: number, bound = '0.0.0.0', port = 0): Buffer {
  // An IPv4 exit on a dual-stack socket reports ::ffff:a.b.c.d; clients expect it as IPv4.
  const address = bound.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  let atyp = 0x01;
  let addressBytes: Buffer = Buffer.alloc(4);
  if (isIPv4(address)) {
    addressBytes = Buffer.from(address.split('.').map(Number));
  } else if (isIPv6(address)) {
    atyp = 0x04;
    addressBytes = ipv6Bytes(address);
  }
  const out = Buffer.alloc(4 + addressBytes.length + 2);
  out[0] = 0x05;
  out[1] = rep;
  out[3] = atyp;
  addressBytes.copy(out, 4);
  out.writeUInt16BE(port, 4 + addressBytes.length);
  return out;
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  const out = Buffer.alloc(16);
  all.forEach((group, i) => {
    out.writeUInt16BE(Number.parseInt(group, 16) || 0, i * 2);
  });
  return out;
}

/** A handshake message read, or why none can be. */
type Read<T> = Exclude<Socks5Parsed<T>, { kind: 'incomplete' }>;

/**
 * Reads a handshake from a socket message by message: `read(parse)` resolves with the message `parse`
 * finds at the front of what the client sent, however the client chunks it (or with its protocol
 * error); whatever arrives after the last message is handed back for the tunnel.
 */
class HandshakeReader {
  private buffered: Buffer = Buffer.alloc(0);
  /** The message awaited: `take` answers whether the bytes so far settled it. */
  private waiting: { take: () => boolean; reject: (error: Error) => void } | null = null;
  private readonly onData = (chunk: Buffer) => {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    if (this.buffered.length > MAX_BUFFERED) {
      this.socket.pause();
    }
    this.settle();
  };
  private readonly onEnd = () => {
    this.waiting?.reject(new Error('client closed during the handshake'));
    this.waiting = null;
  };

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData);
    socket.once('close', this.onEnd);
    // A sticky port paused the socket to peek at its first byte.
    socket.resume();
  }

  read<T>(parse: (bytes: Buffer) => Socks5Parsed<T>): Promise<Read<T>> {
    return new Promise((resolve, reject) => {
      const take = () => {
        const parsed = parse(this.buffered);
        if (parsed.kind === 'incomplete') {
          return false;
        }
        if (parsed.kind === 'message') {
          this.buffered = this.buffered.subarray(parsed.size);
          if (this.buffered.length <= MAX_BUFFERED && this.socket.isPaused()) {
            this.socket.resume();
          }
        }
        resolve(parsed);
        return true;
      };
      this.waiting = { take, reject };
      this.settle();
    });
  }

  private settle(): void {
    if (this.waiting?.take()) {
      this.waiting = null;
    }
  }

  /** Stops reading; answers the bytes the client sent past the handshake. */
  release(): Buffer {
    this.socket.off('data', this.onData);
    this.socket.off('close', this.onEnd);
    this.socket.pause();
    return this.buffered;
  }
}

/** Refusal after the method stage: the REP code for the error, the reply left out of the bill. */
function refuseRequest(
  ctx: Pick<EngineContext, 'meter' | 'counters'>,
  client: Socket,
  error: unknown,
  admitted: Admitted | null,
): void {
  const gatewayError = asGatewayError(error);
  const socks = gatewayErrors[gatewayError.code].socks;
  refuseWith(ctx, client, admitted, gatewayError, reply('rep' in socks ? socks.rep : REP_NOT_ALLOWED));
}

/**
 * One SOCKS5 client (RFC 1928 CONNECT, RFC 1929 username/password, no-auth for allowlisted addresses).
 * Auth-stage refusals (credentials, traffic, threads, username grammar) answer RFC 1929 failure; later
 * ones answer their REP code. Once connected the sockets are piped and metered at the client socket.
 */
export async function handleSocks5(ctx: EngineContext, session: ClientSession): Promise<void> {
  const client = session.socket;
  countConnection(ctx.counters, session, 'socks5');
  client.on('error', destroySocket);
  handshakeDeadlines.set(client);
  client.once('close', clearHandshakeDeadline);
  const reader = new HandshakeReader(client);
  let admitted: Admitted | null = null;
  try {
    const greeting = await reader.read(parseGreeting);
    if (greeting.kind === 'error') {
      client.destroy();
      return;
    }
    const { methods } = greeting.message;
    if (methods.includes(METHOD_USERPASS)) {
      client.write(CHOSE_USERPASS);
      const credentials = await reader.read(parseCredentials);
      if (credentials.kind === 'error') {
        client.destroy();
        return;
      }
      const { username, password } = credentials.message;
      // Credentials admitted before are known by what the client sent (no decoding or parsing again).
      const key = `${username}\u0000${password}`;
      const known = knownCredentialsOf(key) ?? { username, password };
      try {
        admitted = await admit(ctx, known, session);
        rememberCredentials(key, known);
      } catch (error) {
        // RFC 1929 has one failure answer; the counts keep why.
        countRefusal(ctx, client, null, asGatewayError(error));
        endWith(client, AUTH_FAILED);
        return;
      }
      client.write(AUTH_OK);
    } else if (
      methods.includes(METHOD_NONE) &&
      client.remoteAddress &&
      ctx.store.getAddressHolder(client.remoteAddress)
    ) {
      client.write(CHOSE_NONE);
    } else {
      // No credentials offered and not allowlisted: the HTTP port's 407 NO_USER.
      ctx.counters.refusals.NO_USER += 1;
      endWith(client, NO_ACCEPTABLE_METHOD);
      return;
    }

    const request = await reader.read(parseRequest);
    if (request.kind === 'error') {
      countRefusal(ctx, client, admitted, new GatewayError('BAD_REQUEST', 'Unsupported address type'));
      endWith(client, reply(REP_ADDRESS_NOT_SUPPORTED));
      return;
    }
    const { version: requestVersion, command, host, port } = request.message;
    // The client has said everything it must; what follows (the exit's connect) has its own timeouts.
    handshakeDeadlines.delete(client);
    if (requestVersion !== 0x05 || command !== 0x01) {
      countRefusal(ctx, client, admitted, new GatewayError('BAD_REQUEST', 'Only CONNECT is supported'));
      endWith(client, reply(REP_COMMAND_NOT_SUPPORTED));
      return;
    }
    if (!admitted) {
      // Allowlisted, no credentials: admitted at the request, so a refusal can only answer a REP code.
      try {
        admitted = await admit(ctx, null, session);
      } catch (error) {
        refuseRequest(ctx, client, error, null);
        return;
      }
    }
    ctx.meter.attach(client, admitted.plan.planId, admitted.isDoubled, undefined, admitted.userKey);
    ctx.meter.setHost(client, host);

    const address = await resolveTarget(ctx.policy, { host, port }, admitted.plan.unblocks);
    const dialer = new ExitDialer(ctx, admitted, admitted.targeting, session.stickyPort);
    const upstream = await dialer.openTunnel(address, port, host);
    if (client.destroyed) {
      // The client left (or timed out) while the exit was connecting: nothing would close this tunnel.
      upstream.destroy();
      return;
    }
    ctx.meter.setSource(client, dialer.source?.id, dialer.agentId);
    ctx.meter.countRequest(admitted.plan.planId, undefined, admitted.userKey, client);
    const early = reader.release();
    client.write(reply(0x00, upstream.localAddress, upstream.localPort));
    const allow = ctx.meter.allowFor(client);
    if (early.length > 0) {
      upstream.write(early.subarray(0, allow(early.length)));
    }
    relay(client, upstream, allow);
    client.resume();
  } catch (error) {
    if (client.destroyed) {
      return;
    }
    if (error instanceof GatewayError || admitted) {
      refuseRequest(ctx, client, error, admitted);
    } else {
      endWith(client, reply(REP_GENERAL_FAILURE));
    }
  }
}
