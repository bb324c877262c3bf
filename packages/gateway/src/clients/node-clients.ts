import { readFileSync } from 'node:fs';
import { Agent, type ClientRequest, get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { connect, type Socket } from 'node:net';
import axios from 'axios';
import got from 'got';
import { HttpProxyAgent as HpHttpProxyAgent, HttpsProxyAgent as HpHttpsProxyAgent } from 'hpagent';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import nodeFetch from 'node-fetch';
import { SocksProxyAgent } from 'socks-proxy-agent';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';
import { type ClientPath, type MatrixEnv, REQUEST_PATH, runProgram, WS_MESSAGE } from './harness.ts';

// The Node.js clients of the matrix, each on every path it supports, as their documentation sets them up.

export interface ClientCase {
  client: string;
  path: ClientPath;
  /** Part of the short matrix that `npm test` runs. */
  isShort?: boolean;
  /** Why it cannot run on this machine; undefined when it can. */
  unavailable?: () => string | undefined;
  /** `http` or `https`: the origin it asks (its expected body); `ws`: the WebSocket echo. */
  target: 'http' | 'https' | 'ws';
  run(env: MatrixEnv): Promise<string>;
}

const httpProxyUrl = (env: MatrixEnv) =>
  `http://${env.login}:${env.password}@${env.httpProxy.host}:${env.httpProxy.port}`;
const socksProxyUrl = (env: MatrixEnv, scheme = 'socks5h') =>
  `${scheme}://${env.login}:${env.password}@${env.socksProxy.host}:${env.socksProxy.port}`;
const ca = (env: MatrixEnv) => readFileSync(env.caFile);

/** A plain node:http(s) GET through an agent; the body as text. */
function getThrough(url: string, agent: Agent, tlsCa?: Buffer): Promise<string> {
  const get = url.startsWith('https:') ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    get(url, { agent, ...(tlsCa ? { ca: tlsCa } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString()));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** One message over a `ws` WebSocket opened with `agent`; the echo. */
function echoOver(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { agent });
    socket.once('error', reject);
    socket.once('open', () => socket.send(WS_MESSAGE));
    socket.once('message', (data) => {
      socket.close();
      socket.once('close', () => resolve(data.toString()));
    });
  });
}

/**
 * Sends each request to the gateway in absolute form with the ws:// scheme, as aiohttp and curl 8 do
 * for a ws:// URL through an HTTP proxy (http-proxy-agent would write http://).
 */
class WsSchemeProxyAgent extends Agent {
  constructor(private readonly env: MatrixEnv) {
    super();
  }
  addRequest(request: ClientRequest, options: { port?: number | string }): void {
    request.path = `ws://${request.host}:${options.port}${request.path}`;
    const credentials = Buffer.from(`${this.env.login}:${this.env.password}`).toString('base64');
    request.setHeader('Proxy-Authorization', `Basic ${credentials}`);
    // @ts-expect-error Agent.addRequest is Node's (undocumented) hook, as the proxy agents use it.
    super.addRequest(request, options);
  }
  override createConnection(): Socket {
    return connect(this.env.httpProxy.port, this.env.httpProxy.host);
  }
}

/**
 * An ES module in a Node process of its own that trusts the test certificate authority
 * (NODE_EXTRA_CA_CERTS): https-proxy-agent takes the target's TLS options from each request, and axios
 * and node-fetch have none to give, so in production they rely on the system's authorities as this does.
 */
function runModule(env: MatrixEnv, code: string): Promise<string> {
  return runProgram(process.execPath, ['--input-type=module', '-e', code], {
    NODE_EXTRA_CA_CERTS: env.caFile,
  });
}

async function withAgent<T extends { destroy(): void }>(agent: T, use: (agent: T) => Promise<string>) {
  try {
    return await use(agent);
  } finally {
    agent.destroy();
  }
}

export const nodeClients: ClientCase[] = [
  {
    client: 'undici ProxyAgent',
    path: 'http forward',
    isShort: true,
    target: 'http',
    async run(env) {
      const dispatcher = new ProxyAgent({ uri: httpProxyUrl(env), proxyTunnel: false });
      try {
        return await (await undiciFetch(`${env.httpOrigin}${REQUEST_PATH}`, { dispatcher })).text();
      } finally {
        await dispatcher.close();
      }
    },
  },
  {
    client: 'undici ProxyAgent',
    path: 'https via CONNECT',
    isShort: true,
    target: 'https',
    async run(env) {
      const dispatcher = new ProxyAgent({ uri: httpProxyUrl(env), requestTls: { ca: ca(env) } });
      try {
        return await (await undiciFetch(`${env.httpsOrigin}${REQUEST_PATH}`, { dispatcher })).text();
      } finally {
        await dispatcher.close();
      }
    },
  },
  {
    client: 'undici ProxyAgent',
    path: 'socks5',
    isShort: true,
    target: 'http',
    async run(env) {
      const dispatcher = new ProxyAgent({ uri: socksProxyUrl(env, 'socks5') });
      try {
        return await (await undiciFetch(`${env.httpOrigin}${REQUEST_PATH}`, { dispatcher })).text();
      } finally {
        await dispatcher.close();
      }
    },
  },
  {
    client: 'axios + http-proxy-agent',
    path: 'http forward',
    target: 'http',
    run: (env) =>
      withAgent(new HttpProxyAgent(httpProxyUrl(env)), async (httpAgent) => {
        const response = await axios.get(`${env.httpOrigin}${REQUEST_PATH}`, {
          httpAgent,
          proxy: false,
          responseType: 'text',
        });
        return response.data as string;
      }),
  },
  {
    client: 'axios + https-proxy-agent',
    path: 'https via CONNECT',
    target: 'https',
    run: (env) =>
      runModule(
        env,
        `import axios from 'axios';
import { HttpsProxyAgent } from 'https-proxy-agent';
const httpsAgent = new HttpsProxyAgent(${JSON.stringify(httpProxyUrl(env))});
const response = await axios.get(${JSON.stringify(`${env.httpsOrigin}${REQUEST_PATH}`)}, { httpsAgent, proxy: false, responseType: 'text' });
process.stdout.write(response.data);
httpsAgent.destroy();`,
      ),
  },
  {
    client: 'got + hpagent',
    path: 'http via CONNECT',
    target: 'http',
    run: (env) =>
      withAgent(new HpHttpProxyAgent({ proxy: httpProxyUrl(env) }), (agent) =>
        got(`${env.httpOrigin}${REQUEST_PATH}`, { agent: { http: agent }, retry: { limit: 0 } }).text(),
      ),
  },
  {
    client: 'got + hpagent',
    path: 'https via CONNECT',
    target: 'https',
    run: (env) =>
      withAgent(new HpHttpsProxyAgent({ proxy: httpProxyUrl(env) }), (agent) =>
        got(`${env.httpsOrigin}${REQUEST_PATH}`, {
          agent: { https: agent },
          https: { certificateAuthority: ca(env) },
          retry: { limit: 0 },
        }).text(),
      ),
  },
  {
    client: 'node-fetch + http-proxy-agent',
    path: 'http forward',
    target: 'http',
    run: (env) =>
      withAgent(new HttpProxyAgent(httpProxyUrl(env)), async (agent) =>
        (await nodeFetch(`${env.httpOrigin}${REQUEST_PATH}`, { agent })).text(),
      ),
  },
  {
    client: 'node-fetch + https-proxy-agent',
    path: 'https via CONNECT',
    target: 'https',
    run: (env) =>
      runModule(
        env,
        `import fetch from 'node-fetch';
import { HttpsProxyAgent } from 'https-proxy-agent';
const agent = new HttpsProxyAgent(${JSON.stringify(httpProxyUrl(env))});
process.stdout.write(await (await fetch(${JSON.stringify(`${env.httpsOrigin}${REQUEST_PATH}`)}, { agent })).text());
agent.destroy();`,
      ),
  },
  {
    client: 'socks-proxy-agent',
    path: 'socks5',
    target: 'https',
    run: (env) =>
      withAgent(new SocksProxyAgent(socksProxyUrl(env)), (agent) =>
        getThrough(`${env.httpsOrigin}${REQUEST_PATH}`, agent, ca(env)),
      ),
  },
  {
    client: 'ws + http-proxy-agent',
    path: 'ws forward',
    target: 'ws',
    run: (env) =>
      withAgent(new HttpProxyAgent(httpProxyUrl(env)), (agent) => echoOver(`${env.wsOrigin}/`, agent)),
  },
  {
    client: 'ws (GET ws:// absolute-form)',
    path: 'ws absolute-form',
    target: 'ws',
    run: (env) => withAgent(new WsSchemeProxyAgent(env), (agent) => echoOver(`${env.wsOrigin}/`, agent)),
  },
  {
    client: 'ws + https-proxy-agent',
    path: 'ws via CONNECT',
    target: 'ws',
    run: (env) =>
      withAgent(new HttpsProxyAgent(httpProxyUrl(env)), (agent) => echoOver(`${env.wsOrigin}/`, agent)),
  },
  {
    client: 'ws + socks-proxy-agent',
    path: 'ws via socks5',
    target: 'ws',
    run: (env) =>
      withAgent(new SocksProxyAgent(socksProxyUrl(env)), (agent) => echoOver(`${env.wsOrigin}/`, agent)),
  },
];
