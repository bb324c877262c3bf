// A proxy under test, in its own process so its RSS and CPU are its own. Prints {"httpPort","socksPort"}
// as one JSON line once it listens. Modes:
//   bytegate     the Bytegate gateway (auth, limits, metering, policy, exits) over an in-memory store.
//   bare         the gateway's own relay parts without admission, policy, exits or metering: what those
//                cost is the difference. CONNECT: connectTarget + relay (as listeners/http-proxy.ts);
//                forward: ClientConnection + ForwardExchange on a TargetPool (as listeners/forward.ts).
//   floor        the least a Node proxy can do: net sockets piped to each other once the first head is
//                read (CONNECT: after the 200; anything else: the bytes as they are, to the first
//                request's target). No parsing after that, no framing, no keep-alive logic: what Node's
//                own sockets cost per connection and per hop, the floor under the gateway's figures.
//   proxy-chain  the proxy-chain npm package (installed into bench/gateway/.cache by the bench).
// Usage: runner.ts <mode> <open ports, comma separated> [proxy-chain node_modules dir]
import { createRequire } from 'node:module';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import {
  ClientConnection,
  connectTarget,
  createGateway,
  ForwardExchange,
  forwardRequestFor,
  InMemoryGatewayStore,
  relay,
  splitAbsoluteUrl,
  TargetPool,
} from '@bytegate/gateway';
import { BENCH_LOGIN, BENCH_PASSWORD } from './config.ts';

interface Ports {
  httpPort: number;
  socksPort?: number | undefined;
}

async function runBytegate(openPorts: ReadonlySet<number>): Promise<Ports> {
  const store = new InMemoryGatewayStore()
    .addPlan({
      planId: 'bench',
      login: BENCH_LOGIN,
      password: BENCH_PASSWORD,
      poolType: 'datacenter',
      threadLimit: 1_000_000,
      trafficLeftBytes: Number.MAX_SAFE_INTEGER,
      isActive: true,
    })
    .addExit({ id: 'local', kind: 'direct', poolType: 'datacenter', country: 'US', isRisky: false });
  const gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts,
  });
  const ports = await gateway.listen();
  // Drain the meter like the server's usage flush does, so pending usage never grows without bound.
  setInterval(() => gateway.meter.drain(), 1000).unref();
  return { httpPort: ports.httpPort, socksPort: ports.socksPort };
}

const BAD_GATEWAY = 'HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';
const CONNECT_ESTABLISHED = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n');

function bareConnect(client: Socket, authority: string, head: Buffer) {
  client.on('error', () => client.destroy());
  const match = /^([^:/\s]+):(\d{1,5})$/.exec(authority);
  const target = connectTarget({ host: match?.[1] ?? '', port: Number(match?.[2]) });
  target.setNoDelay(true);
  target.once('error', () => client.end(BAD_GATEWAY));
  target.once('connect', () => {
    target.removeAllListeners('error');
    if (client.destroyed) {
      target.destroy();
      return;
    }
    if (head.length > 0) {
      target.write(head);
    }
    client.write(CONNECT_ESTABLISHED);
    relay(client, target);
  });
}

async function runBare(): Promise<Ports> {
  const pool = new TargetPool();
  const server = createServer((socket) => {
    new ClientConnection(socket, {
      onConnect: (head, rest) => bareConnect(socket, head.target, rest),
      onMalformed: () => socket.end(BAD_GATEWAY),
      onTooLarge: () => socket.end(BAD_GATEWAY),
      onForward: (client, head, rest) => {
        const url = splitAbsoluteUrl(head.target);
        if (!url || 'scheme' in url) {
          socket.end(BAD_GATEWAY);
          return;
        }
        const request = forwardRequestFor(head, url);
        const exchange = new ForwardExchange(socket, request, pool, {
          onAnswered: () => {},
          onFailed: () => socket.end(BAD_GATEWAY),
          // The bare relay meters nothing, so its traffic never runs out.
          onOutOfTraffic: () => socket.destroy(),
          onDone: (keepAlive, pipelined) => client.afterRequest(keepAlive, pipelined),
          // The benchmark sends no upgrades.
          onSwitched: (_, target) => {
            target.destroy();
            socket.destroy();
          },
        });
        client.setExchange(exchange);
        const key = `${url.host}|${url.port}`;
        let target = pool.take(key, exchange);
        if (!target) {
          // As the gateway's forward path: read into reused memory (relay.ts).
          const fresh = connectTarget({ host: url.host, port: url.port });
          fresh.setNoDelay(true);
          target = pool.adopt(fresh, key, exchange);
        }
        exchange.start(target, rest);
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { httpPort: (server.address() as AddressInfo).port };
}

async function runFloor(): Promise<Ports> {
  const server = createServer((client) => {
    client.on('error', () => client.destroy());
    let head: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = head.length > 0 ? Buffer.concat([head, chunk]) : chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        return;
      }
      client.off('data', onData);
      client.pause();
      const [method = '', target = ''] = head.toString('latin1', 0, head.indexOf('\r\n')).split(' ');
      const isConnect = method === 'CONNECT';
      const authority = isConnect ? target : (URL.parse(target)?.host ?? '');
      const colon = authority.lastIndexOf(':');
      const upstream = connect({
        host: authority.slice(0, colon),
        port: Number(authority.slice(colon + 1)),
        noDelay: true,
      });
      upstream.once('connect', () => {
        if (isConnect) {
          client.write(CONNECT_ESTABLISHED);
          upstream.write(head.subarray(end + 4));
        } else {
          upstream.write(head);
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    };
    client.on('data', onData);
  });
  server.on('connection', (socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { httpPort: (server.address() as AddressInfo).port };
}

async function runProxyChain(modulesDir: string): Promise<Ports> {
  const require = createRequire(`${modulesDir}/`);
  const ProxyChain = require('proxy-chain') as {
    Server: new (options: {
      port: number;
      host: string;
      verbose: boolean;
    }) => {
      listen(): Promise<void>;
      port: number;
    };
  };
  const server = new ProxyChain.Server({ port: 0, host: '127.0.0.1', verbose: false });
  await server.listen();
  return { httpPort: server.port };
}

// A clean exit on SIGTERM, so `node --cpu-prof` writes its profile (profile.ts relies on it).
process.once('SIGTERM', () => process.exit(0));

const [mode = 'bytegate', openPortsText = '', modulesDir = ''] = process.argv.slice(2);
const openPorts = new Set(openPortsText.split(',').filter(Boolean).map(Number));
const ports =
  mode === 'bare'
    ? await runBare()
    : mode === 'floor'
      ? await runFloor()
      : mode === 'proxy-chain'
        ? await runProxyChain(modulesDir)
        : mode === 'bytegate'
          ? await runBytegate(openPorts)
          : undefined;
if (!ports) {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write(`${JSON.stringify(ports)}\n`);
