// The bench's origin, in its own process on ORIGIN_HOST: a client's first line is how many bytes it wants
// (decimal); it then gets that many bytes of the pattern (pattern.ts) as fast as it reads, then the end.
// Sends {port} on its IPC channel once it listens; ends with its parent.
import { type AddressInfo, createServer } from 'node:net';
import { BLOCK, BLOCK_BYTES } from './pattern.ts';

const host = process.argv[2] ?? '127.0.0.10';
/** A connection gets at most this, whatever it asks for. */
const MAX_BYTES = 4 * 1024 ** 3;

const server = createServer((socket) => {
  socket.on('error', () => socket.destroy());
  socket.setNoDelay(true);
  let asked = '';
  const onData = (data: Buffer) => {
    asked += data.toString('latin1');
    const newline = asked.indexOf('\n');
    if (newline === -1) {
      if (asked.length > 32) {
        socket.destroy();
      }
      return;
    }
    socket.off('data', onData);
    let left = Math.min(MAX_BYTES, Math.max(0, Number.parseInt(asked.slice(0, newline), 10) || 0));
    // Whole blocks while they fit (the pattern repeats every BLOCK_BYTES), then the tail.
    const pump = () => {
      while (left > 0) {
        const piece = left >= BLOCK_BYTES ? BLOCK : BLOCK.subarray(0, left);
        left -= piece.length;
        if (!socket.write(piece)) {
          socket.once('drain', pump);
          return;
        }
      }
      socket.end();
    };
    pump();
  };
  socket.on('data', onData);
});

server.listen(0, host, () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.once('disconnect', () => process.exit(0));
