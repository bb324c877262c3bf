import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { NotificationSettings, WebhookDelivery } from '@bytegate/contracts/notifications';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../apps/server/src/mail/mailer.ts';
import { createRecordingLog } from '../apps/server/src/mail/testing/recording-log.ts';
import { adjustBalance } from '../apps/server/src/services/billing/adjust-balance.ts';
import { deliverDueWebhooks } from '../apps/server/src/services/notifications/deliver-webhooks.ts';
import { dispatchNotifications } from '../apps/server/src/services/notifications/dispatch-notifications.ts';
import { signatureHeader } from '../apps/server/src/services/notifications/webhook-signature.ts';
import {
  createUserViaApi,
  startTestServer,
  type TestServer,
} from '../apps/server/src/testing/test-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../apps/server/src/testing/webhook-receiver.ts';

// "Webhooks", run as written: its TypeScript receiver type-checked under strict settings and run with
// tsx as the endpoint of a real account's webhook (the test event and a purchase's event reach it, signed;
// forged, tampered and stale requests are refused; a retried event is handled once), and its Python check
// run with Debian's python3 against real deliveries captured at a receiver, and against forgeries.

const article = fileURLToPath(new URL('../apps/web/src/content/help/webhooks.md', import.meta.url));
const workDir = fileURLToPath(new URL('../.test-results/help-webhooks', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const markdown = readFileSync(article, 'utf8');
const blocksOf = (lang: string) =>
  [...markdown.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (match) => match[1] ?? '',
  );
const [typescript = ''] = blocksOf('ts');
const [python = ''] = blocksOf('python');
const [sample = '{}'] = blocksOf('json');

function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, cwd: root, timeout: 25_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let server: TestServer;
let token: string;
let email: string;
const ctx = () => ({
  db: server.database.db,
  config: server.config,
  mailer: createMailer(server.config, createRecordingLog()),
});

beforeAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  server = await startTestServer(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  server.config.webhooks.allowPrivateTargets = true;
  ({ token, email } = await createUserViaApi(server));
});
afterAll(async () => {
  await server?.close();
});

const setWebhook = async (url: string) =>
  (await server.request<NotificationSettings>('PUT', '/api/notifications/webhook', { token, body: { url } }))
    .body.webhook?.secret ?? '';
const sendTest = async () =>
  (await server.request<WebhookDelivery>('POST', '/api/notifications/webhook/test', { token, body: {} }))
    .body;

describe('Webhooks', () => {
  it('shows a body of the shape a delivery has, and the two examples this test runs', () => {
    const event = JSON.parse(sample) as Record<string, unknown>;
    expect(Object.keys(event)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(typescript).toContain("createHmac('sha256', secret)");
    expect(python).toContain('def is_from_bytegate(');
  });

  describe('the TypeScript receiver', () => {
    const file = `${workDir}/receiver.mts`;
    let receiver: ChildProcess;
    let port: number;
    let secret: string;
    let output = '';

    beforeAll(async () => {
      writeFileSync(file, typescript);
      port = await freePort();
      secret = await setWebhook(`http://127.0.0.1:${port}/hooks/bytegate`);
      receiver = spawn(process.execPath, ['--import', 'tsx', file], {
        cwd: root,
        env: { ...process.env, PORT: String(port), BYTEGATE_WEBHOOK_SECRET: secret },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      receiver.stdout?.on('data', (chunk) => {
        output += chunk;
      });
      receiver.stderr?.on('data', (chunk) => {
        output += chunk;
      });
      // Listening once it answers (a 400: a request without a signature).
      const deadline = Date.now() + 20_000;
      for (;;) {
        try {
          await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' });
          break;
        } catch {
          if (Date.now() > deadline) {
            throw new Error(`the receiver did not start:\n${output}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    });
    afterAll(() => {
      receiver?.kill();
    });

    it('type-checks under strict settings', async () => {
      const { code, stdout } = await run(process.execPath, [
        'node_modules/typescript/bin/tsc',
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--types',
        'node',
        '--skipLibCheck',
        file,
      ]);
      expect(stdout, stdout).toBe('');
      expect(code).toBe(0);
    });

    it('accepts the test event and a purchase’s, each signed, and handles a retried event once', async () => {
      const test = await sendTest();
      expect(test).toMatchObject({ kind: 'test', status: 'delivered' });
      expect(test.attempts[0]).toMatchObject({ statusCode: 200, responseBody: 'ok' });
      await adjustBalance(ctx(), { email, amountCents: 10_00, reason: 'test credit' });
      const bought = await server.request('POST', '/api/subuser/create', {
        token,
        body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
      });
      expect(bought.status).toBe(201);
      await dispatchNotifications(ctx());
      expect(await deliverDueWebhooks(ctx())).toBe(1);
      // The same event again, as a retry sends it: answered, and not handled a second time.
      const [delivery] = (
        await server.request<{ deliveries: WebhookDelivery[] }>(
          'GET',
          '/api/notifications/webhook/deliveries',
          {
            token,
          },
        )
      ).body.deliveries;
      expect(delivery).toMatchObject({ kind: 'purchase_completed', status: 'delivered' });
      await server.database.db.execute(
        `update webhook_deliveries set status = 'pending', next_attempt_at = now() - interval '1 second' where id = '${delivery?.id}'`,
      );
      expect(await deliverDueWebhooks(ctx())).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = output.trim().split('\n');
      expect(lines.filter((line) => line.startsWith('test '))).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('purchase_completed '))).toHaveLength(1);
      expect(lines.find((line) => line.startsWith('purchase_completed '))).toContain('"quantity_gb":5');
    });

    it('refuses a forged, a tampered and a stale request with 400', async () => {
      const body = JSON.stringify({
        id: 'forged',
        type: 'low_balance',
        created_at: new Date().toISOString(),
        data: {},
      });
      const now = Math.floor(Date.now() / 1000);
      const post = (headers: Record<string, string>, payload = body) =>
        fetch(`http://127.0.0.1:${port}/hooks/bytegate`, { method: 'POST', headers, body: payload });
      expect((await post({})).status).toBe(400);
      expect(
        (await post({ 'bytegate-signature': signatureHeader('whsec_not-ours', now, body) })).status,
      ).toBe(400);
      expect(
        (
          await post(
            { 'bytegate-signature': signatureHeader(secret, now, body) },
            body.replace('forged', 'forgeD'),
          )
        ).status,
      ).toBe(400);
      expect((await post({ 'bytegate-signature': signatureHeader(secret, now - 301, body) })).status).toBe(
        400,
      );
      // Signed with the secret, now: accepted (the check itself, not a stub that refuses everything).
      expect((await post({ 'bytegate-signature': signatureHeader(secret, now, body) })).status).toBe(200);
    });
  });

  describe('the Python check', () => {
    let capture: WebhookReceiver;
    beforeAll(async () => {
      capture = await startWebhookReceiver();
    });
    afterAll(async () => {
      await capture?.close();
    });

    it('accepts a real delivery and refuses forgeries, with python3 and the standard library', async () => {
      const secret = await setWebhook(capture.url);
      await sendTest();
      const got = capture.received.at(-1);
      const header = String(got?.headers['bytegate-signature']);
      const body = got?.body ?? '';
      const now = Math.floor(Date.now() / 1000);
      const cases: Array<[string, string, string, boolean]> = [
        ['real', header, body, true],
        ['tampered', header, body.replace('test', 'tesT'), false],
        ['another secret', signatureHeader('whsec_not-ours', now, body), body, false],
        ['stale', signatureHeader(secret, now - 600, body), body, false],
        ['no signature', '', body, false],
      ];
      const script = `${python}\nimport json, sys\nsecret = sys.argv[1]\nfor name, header, body in json.loads(sys.stdin.read()):\n    print(name, is_from_bytegate(secret, header, body.encode()))\n`;
      writeFileSync(`${workDir}/check.py`, script);
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile('/usr/bin/python3', [`${workDir}/check.py`, secret], (error, stdout, stderr) =>
          resolve({ code: error ? 1 : 0, stdout, stderr }),
        );
        child.stdin?.end(JSON.stringify(cases.map(([name, h, b]) => [name, h, b])));
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim().split('\n')).toEqual(
        cases.map(([name, , , ok]) => `${name} ${ok ? 'True' : 'False'}`),
      );
    });
  });
});
