import type { Socket } from 'node:net';

/** A socket's internals that say how much of what was written has gone to the kernel. */
interface SocketInternals {
  _bytesDispatched?: number;
  _handle?: { writeQueueSize?: number } | null;
}

/**
 * Bytes a socket handed to the kernel for its peer: not `bytesWritten`, which also counts writes still
 * queued in the socket (and in libuv) that a destroy drops, never sent; billed, they would be traffic
 * the client never got (a 64 KiB read of the target, queued behind a full socket as its plan ran out).
 */
export function sentBytes(socket: Socket): number {
  const internals = socket as unknown as SocketInternals;
  const dispatched = internals._bytesDispatched;
  if (typeof dispatched !== 'number') {
    return socket.bytesWritten - socket.writableLength;
  }
  return dispatched - (internals._handle?.writeQueueSize ?? 0);
}
