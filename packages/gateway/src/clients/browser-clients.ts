import { existsSync } from 'node:fs';
import { type MatrixEnv, REQUEST_PATH } from './harness.ts';
import type { ClientCase } from './node-clients.ts';

// Chromium through Playwright, set up as the Headless browsers guide says: its flags, and Google's
// service hosts kept off the proxy (bypass), without which Chromium 156 opened tunnels to
// update.googleapis.com and accounts.google.com at every launch, flags or not (this matrix found it). It
// comes in by the plan's IP allowlist, as the guide's by-hand setup does: with a password Chromium first
// asks without one and answers the 407, an exchange the gateway does not bill, so billed could not equal
// the bytes on the wire.

const CHROMIUM = '/usr/bin/chromium';
const GUIDE_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--no-pings',
  '--metrics-recording-only',
  '--no-first-run',
];

async function chromiumGet(env: MatrixEnv, url: string): Promise<string> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', ...GUIDE_FLAGS],
    proxy: {
      server: `http://${env.httpProxy.host}:${env.httpProxy.port}`,
      bypass: '*.googleapis.com,*.google.com,*.gvt1.com',
    },
  });
  try {
    // The test origin's certificate is not in Chromium's store (other clients are given its CA file).
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const response = await page.goto(url);
    return (await response?.text()) ?? '';
  } finally {
    await browser.close();
  }
}

const unavailable = () => (existsSync(CHROMIUM) ? undefined : `no ${CHROMIUM} (apt-get install chromium)`);

export const browserClients: ClientCase[] = [
  {
    client: 'Chromium (Playwright)',
    path: 'http forward',
    target: 'http',
    unavailable,
    run: (env) => chromiumGet(env, `${env.httpOrigin}${REQUEST_PATH}`),
  },
  {
    client: 'Chromium (Playwright)',
    path: 'https via CONNECT',
    target: 'https',
    unavailable,
    run: (env) => chromiumGet(env, `${env.httpsOrigin}${REQUEST_PATH}`),
  },
];
