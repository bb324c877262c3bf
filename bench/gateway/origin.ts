// The bench's origin, in its own process: a bulk TCP source, an HTTP server (small responses, and bulk
// ones for the forward path), an idle TCP sink.
// Prints {"bulk","http","idle"} ports as one JSON line once it listens.
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';

/** A bulk connection gets at most this, whatever it asks for. */
const MAX_BULK_BYTES = 1024 * 1024 * 1024;
const chunk = Buffer.alloc(1024 * 1024, 120);
const small = Buffer.alloc(1024, 97);

// The client's first line is how many bytes it wants (decimal); it then gets them as fast as it reads,
// then the end. A tunnel is known to be open only once the client speaks, hence the request.
const bulk = createServer((socket) => {
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
    let left = Math.min(MAX_BULK_BYTES, Math.max(0, Number.parseInt(asked.slice(0, newline), 10) || 0));
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
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

// GET /bulk/N answers N bytes (at most MAX_BULK_BYTES) with a Content-Length: the forward path's bulk.
const http = createHttpServer({ keepAlive: true }, (request, response) => {
  const bulkBytes = /^\/bulk\/(\d+)$/.exec(request.url ?? '')?.[1];
  if (bulkBytes === undefined) {
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': small.length });
    response.end(small);
    return;
  }
  let left = Math.min(MAX_BULK_BYTES, Number(bulkBytes));
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': left });
  const pump = () => {
    while (left > 0) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!response.write(piece)) {
        response.once('drain', pump);
        return;
      }
    }
    response.end();
  };
  pump();
});
http.keepAliveTimeout = 60_000;

const idle = createServer((socket) => {
  socket.on('error', () => socket.destroy());
});

const listen = (server: Server | ReturnType<typeof createHttpServer>) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

const ports = { bulk: await listen(bulk), http: await listen(http), idle: await listen(idle) };
process.stdout.write(`${JSON.stringify(ports)}\n`);
