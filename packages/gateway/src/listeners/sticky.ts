import type { ClientSession } from '../client-session.ts';
import { type EngineContext, turnAway } from '../engine-context.ts';
import type { PendingRefusal } from '../tunnel/pending-connections.ts';
import { handleHttpConnection } from './http-proxy.ts';
import { handleSocks5 } from './socks5.ts';

/** A client that connects to a sticky port and sends nothing is dropped after this. */
const FIRST_BYTE_TIMEOUT_MS = 10_000;
/** A SOCKS5 greeting starts with its version; an HTTP request never starts with this byte. */
const SOCKS5_VERSION = 0x05;

/**
 * One connection on a sticky port, where the port is the session (its ClientSession carries the port)
 * and the protocol is told by the first byte: SOCKS5 or HTTP, then handled as on their own ports.
 * A connection over the pending caps (`refusal`) is turned away in the protocol it turns out to speak.
 */
export function handleStickyConnection(
  ctx: EngineContext,
  session: ClientSession,
  refusal: PendingRefusal | null,
): void {
  const { socket } = session;
  socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
  socket.once('data', (first: Buffer) => {
    socket.setTimeout(0);
    const isSocks5 = first[0] === SOCKS5_VERSION;
    if (refusal) {
      turnAway(ctx.counters, socket, refusal, isSocks5 ? 'socks5' : 'http');
      return;
    }
    // Put back, paused: the protocol's handler reads the connection from its first byte.
    socket.pause();
    socket.unshift(first);
    if (isSocks5) {
      void handleSocks5(ctx, session);
    } else {
      handleHttpConnection(ctx, session);
      socket.resume();
    }
  });
  socket.on('error', () => socket.destroy());
}
