import { execFileSync } from 'node:child_process';
import { type MatrixEnv, REQUEST_PATH, runProgram, WS_MESSAGE } from './harness.ts';
import type { ClientCase } from './node-clients.ts';

// The matrix's clients that are programs of their own: curl, wget, and Python's HTTP libraries in
// whichever python3 on this machine has them (pyenv's, Debian's /usr/bin/python3). A client that is
// not installed is skipped with the reason, never counted as a pass.

function output(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const curlVersion = output('curl', ['--version']);
const hasWget = output('wget', ['--version']) !== undefined;
const PYTHONS = ['python3', '/usr/bin/python3'];

const found = new Map<string, string | undefined>();
/** The first python3 that imports every module named; undefined when none does. Asked once, when needed. */
function pythonWith(...modules: string[]): string | undefined {
  const key = modules.join(', ');
  if (!found.has(key)) {
    found.set(
      key,
      PYTHONS.find((python) => output(python, ['-c', `import ${key}`]) !== undefined),
    );
  }
  return found.get(key);
}
const needs = (modules: string[], what: string) => () =>
  pythonWith(...modules)
    ? undefined
    : `no python3 here imports ${modules.join(', ')} (Debian: apt-get install python3-${what})`;

const proxyAuthority = (env: MatrixEnv, kind: 'http' | 'socks') =>
  kind === 'http'
    ? `${env.httpProxy.host}:${env.httpProxy.port}`
    : `${env.socksProxy.host}:${env.socksProxy.port}`;
const proxyUrl = (env: MatrixEnv, scheme: string, kind: 'http' | 'socks' = 'http') =>
  `${scheme}://${env.login}:${env.password}@${proxyAuthority(env, kind)}`;

/** A Python script run with the matrix's settings as the JSON argument `env`, by a python3 with `modules`. */
function python(modules: string[], script: string) {
  return (env: MatrixEnv) =>
    runProgram(pythonWith(...modules) ?? 'python3', [
      '-c',
      `import json, sys\nenv = json.loads(sys.argv[1])\n${script}`,
      JSON.stringify(env),
    ]);
}

const requestsScript = (proxy: string, target: 'http' | 'https') => `
import requests
proxy = ${proxy}
print(requests.get(env["${target}Origin"] + "${REQUEST_PATH}", proxies={"http": proxy, "https": proxy}, verify=env["caFile"]).text, end="")
`;
const httpProxyExpr = `f"http://{env['login']}:{env['password']}@{env['httpProxy']['host']}:{env['httpProxy']['port']}"`;

const scrapyScript = (target: 'http' | 'https') => `
import scrapy
from scrapy.crawler import CrawlerProcess
proxy = ${httpProxyExpr}
out = []
class One(scrapy.Spider):
    name = "one"
    def start_requests(self):
        yield scrapy.Request(env["${target}Origin"] + "${REQUEST_PATH}", meta={"proxy": proxy}, dont_filter=True)
    def parse(self, response):
        out.append(response.text)
process = CrawlerProcess(settings={"LOG_ENABLED": False, "TELNETCONSOLE_ENABLED": False, "ROBOTSTXT_OBEY": False})
process.crawl(One)
process.start()
print(out[0] if out else "no answer", end="")
`;

export const programClients: ClientCase[] = [
  ...(['http', 'https'] as const).map(
    (target): ClientCase => ({
      client: 'curl',
      path: target === 'http' ? 'http forward' : 'https via CONNECT',
      isShort: true,
      target,
      unavailable: () => (curlVersion ? undefined : 'curl is not installed'),
      run: (env) =>
        runProgram('curl', [
          '-sS',
          '--fail',
          '--cacert',
          env.caFile,
          '-x',
          proxyUrl(env, 'http'),
          `${target === 'http' ? env.httpOrigin : env.httpsOrigin}${REQUEST_PATH}`,
        ]),
    }),
  ),
  {
    client: 'curl',
    path: 'socks5',
    isShort: true,
    target: 'https',
    unavailable: () => (curlVersion ? undefined : 'curl is not installed'),
    run: (env) =>
      runProgram('curl', [
        '-sS',
        '--fail',
        '--cacert',
        env.caFile,
        '-x',
        proxyUrl(env, 'socks5h', 'socks'),
        `${env.httpsOrigin}${REQUEST_PATH}`,
      ]),
  },
  ...(['http', 'https'] as const).map(
    (target): ClientCase => ({
      client: 'wget',
      path: target === 'http' ? 'http forward' : 'https via CONNECT',
      target,
      unavailable: () => (hasWget ? undefined : 'wget is not installed'),
      run: (env) =>
        runProgram('wget', [
          '-q',
          '-O',
          '-',
          '--no-hsts',
          `--ca-certificate=${env.caFile}`,
          '-e',
          'use_proxy=yes',
          '-e',
          `${target}_proxy=http://${proxyAuthority(env, 'http')}`,
          `--proxy-user=${env.login}`,
          `--proxy-password=${env.password}`,
          `${target === 'http' ? env.httpOrigin : env.httpsOrigin}${REQUEST_PATH}`,
        ]),
    }),
  ),
  ...(['http', 'https'] as const).map(
    (target): ClientCase => ({
      client: 'Python requests',
      path: target === 'http' ? 'http forward' : 'https via CONNECT',
      target,
      unavailable: needs(['requests'], 'requests'),
      run: python(['requests'], requestsScript(httpProxyExpr, target)),
    }),
  ),
  {
    client: 'Python requests',
    path: 'socks5',
    target: 'https',
    unavailable: needs(['requests', 'socks'], 'socks'),
    run: python(
      ['requests', 'socks'],
      requestsScript(
        `f"socks5h://{env['login']}:{env['password']}@{env['socksProxy']['host']}:{env['socksProxy']['port']}"`,
        'https',
      ),
    ),
  },
  ...(['http', 'https'] as const).map(
    (target): ClientCase => ({
      client: 'Python urllib',
      path: target === 'http' ? 'http forward' : 'https via CONNECT',
      target,
      unavailable: () => (pythonWith('urllib.request') ? undefined : 'python3 is not installed'),
      run: python(
        ['urllib.request'],
        `
import ssl, urllib.request
proxy = ${httpProxyExpr}
opener = urllib.request.build_opener(
    urllib.request.ProxyHandler({"http": proxy, "https": proxy}),
    urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=env["caFile"])),
)
print(opener.open(env["${target}Origin"] + "${REQUEST_PATH}").read().decode(), end="")
`,
      ),
    }),
  ),
  ...(['http', 'https'] as const).map(
    (target): ClientCase => ({
      client: 'Python httpx',
      path: target === 'http' ? 'http forward' : 'https via CONNECT',
      target,
      unavailable: needs(['httpx'], 'httpx'),
      run: python(
        ['httpx'],
        `
import httpx
with httpx.Client(proxies=${httpProxyExpr}, verify=env["caFile"]) as client:
    print(client.get(env["${target}Origin"] + "${REQUEST_PATH}").text, end="")
`,
      ),
    }),
  ),
  {
    client: 'Python httpx',
    path: 'socks5',
    target: 'https',
    unavailable: () =>
      pythonWith('httpx', 'socksio')
        ? undefined
        : 'httpx needs socksio for SOCKS5, and no python3 here has it',
    run: python(
      ['httpx', 'socksio'],
      `
import httpx
proxy = f"socks5://{env['login']}:{env['password']}@{env['socksProxy']['host']}:{env['socksProxy']['port']}"
with httpx.Client(proxies=proxy, verify=env["caFile"]) as client:
    print(client.get(env["httpsOrigin"] + "${REQUEST_PATH}").text, end="")
`,
    ),
  },
  ...(['http', 'https'] as const).map(
    (target): ClientCase => ({
      client: 'Python aiohttp',
      path: target === 'http' ? 'http forward' : 'https via CONNECT',
      target,
      unavailable: needs(['aiohttp'], 'aiohttp'),
      run: python(
        ['aiohttp'],
        `
import asyncio, ssl, aiohttp
async def main():
    async with aiohttp.ClientSession() as session:
        async with session.get(env["${target}Origin"] + "${REQUEST_PATH}", proxy=${httpProxyExpr},
                               ssl=ssl.create_default_context(cafile=env["caFile"])) as response:
            print(await response.text(), end="")
asyncio.run(main())
`,
      ),
    }),
  ),
  {
    client: 'Python aiohttp',
    path: 'ws absolute-form',
    target: 'ws',
    unavailable: needs(['aiohttp'], 'aiohttp'),
    run: python(
      ['aiohttp'],
      `
import asyncio, aiohttp
async def main():
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(env["wsOrigin"] + "/", proxy=${httpProxyExpr}) as socket:
            await socket.send_str("${WS_MESSAGE}")
            print((await socket.receive()).data, end="")
asyncio.run(main())
`,
    ),
  },
  {
    client: 'Python websocket-client',
    path: 'ws via CONNECT',
    target: 'ws',
    unavailable: needs(['websocket'], 'websocket'),
    run: python(
      ['websocket'],
      `
import websocket
socket = websocket.create_connection(env["wsOrigin"] + "/", http_proxy_host=env["httpProxy"]["host"],
    http_proxy_port=env["httpProxy"]["port"], http_proxy_auth=(env["login"], env["password"]), proxy_type="http",
    # Without a list of its own it never proxies 127.0.0.1 and localhost (its default no_proxy).
    http_no_proxy=["no-proxy.invalid"])
socket.send("${WS_MESSAGE}")
print(socket.recv(), end="")
socket.close()
`,
    ),
  },
  // Scrapy takes the proxy's login from the URL in the request's meta (HttpProxyMiddleware).
  ...(['http', 'https'] as const).map(
    (target): ClientCase => ({
      client: 'Scrapy',
      path: target === 'http' ? 'http forward' : 'https via CONNECT',
      target,
      unavailable: needs(['scrapy'], 'scrapy'),
      run: python(['scrapy'], scrapyScript(target)),
    }),
  ),
];
