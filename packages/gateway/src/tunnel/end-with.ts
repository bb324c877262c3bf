import type { Socket } from 'node:net';

/** How long a client has, once the answer is all written, to close before its socket is destroyed. */
export const LINGER_MS = 1000;

/**
 * Answers `bytes` and closes: ends the write side, then reads and drops whatever the client still
 * sends, so that its close is seen, and destroys the socket if the client has not closed within
 * LINGER_MS of the last byte leaving (a long answer to a slow reader is not cut short). Only ending a
 * socket that was paused (as a connection is while its request is handled, or when a pipelined request
 * waits) never reads the client's FIN: the connection, and its thread slot, would be held for ever.
 */
export function endWith(socket: Socket, bytes: Buffer): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(bytes);
  socket.removeAllListeners('data');
  socket.resume();
  let linger: NodeJS.Timeout | undefined;
  socket.once('finish', () => {
    linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
  });
  socket.once('close', () => clearTimeout(linger));
}
