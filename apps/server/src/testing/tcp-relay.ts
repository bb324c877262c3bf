import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real server (PostgreSQL, say) that a test controls: `pause()` stops every
 * byte in both directions and leaves new connections hanging, as a frozen host or a dead network link
 * does; `resume()` lets everything through again; `cut()` resets every open connection.
 */
export interface TcpRelay {
  port: number;
  pause(): void;
  resume(): void;
  /**
   * Arms a trap: the first time a client sends bytes matching `pattern`, they are passed on and then
   * everything pauses, so the server acts on them but its answer never arrives (a COMMIT whose reply is
   * lost). Answers once it has sprung.
   */
  pauseAfterClientSends(pattern: RegExp): Promise<void>;
  cut(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  let isPaused = false;
  const pairs = new Set<[Socket, Socket]>();
  const waiting = new Set<Socket>();
  let trap: { pattern: RegExp; sprung: () => void } | null = null;
  const pauseAll = () => {
    isPaused = true;
    for (const [client, upstream] of pairs) {
      client.pause();
      upstream.pause();
    }
  };

  const open = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      if (trap?.pattern.test(chunk.toString('latin1'))) {
        const { sprung } = trap;
        trap = null;
        // Once the bytes are on their way to the server, nothing more comes back.
        upstream.pause();
        pauseAll();
        sprung();
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
    });
    if (isPaused) {
      client.pause();
      upstream.pause();
    }
  };

  const server: Server = createServer((client) => {
    if (isPaused) {
      // Accepted by the kernel, never answered: the client's handshake waits until it gives up.
      waiting.add(client);
      client.on('error', () => client.destroy());
      client.on('close', () => waiting.delete(client));
      client.pause();
      return;
    }
    open(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  const cut = () => {
    for (const [client, upstream] of [...pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
  };
  return {
    port,
    pause: pauseAll,
    pauseAfterClientSends(pattern) {
      return new Promise((resolve) => {
        trap = { pattern, sprung: resolve };
      });
    },
    resume() {
      isPaused = false;
      for (const [client, upstream] of pairs) {
        client.resume();
        upstream.resume();
      }
      for (const client of [...waiting]) {
        waiting.delete(client);
        if (!client.destroyed) {
          client.resume();
          open(client);
        }
      }
    },
    cut,
    async close() {
      cut();
      for (const client of waiting) {
        client.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
