import type { Socket } from 'node:net';

/** How long a refused client has to read the answer and close before its socket is destroyed. */
export const LINGER_MS = 1000;

/**
 * Answers `bytes` and closes: ends the write side, then reads and drops whatever the client still
 * sends, so that its close is seen, and destroys the socket if the client has not closed within
 * LINGER_MS. Only ending a socket that was paused (as a connection is while its request is handled)
 * never reads the client's FIN: the connection, and its thread slot, would be held for ever.
 */
export function endWith(socket: Socket, bytes: Buffer): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(bytes);
  socket.removeAllListeners('data');
  socket.resume();
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}
