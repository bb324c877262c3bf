import { createServer, type Server } from 'node:http';

export interface FakeSiteverify {
  url: string;
  /** Every form the fake received, to check what the real client sent. */
  received: URLSearchParams[];
  close(): Promise<void>;
}

/**
 * A local stand-in for reCAPTCHA v3's siteverify endpoint that speaks its real wire format:
 * a form-encoded POST of secret, response and remoteip, answered with
 * `{ success, score, action, challenge_ts, hostname, "error-codes" }`.
 * Tokens name the outcome: `human-<action>` passes, `bot-<action>` scores 0.1, anything else is invalid;
 * `@<host>` at the end sets the host name the token was solved on (default 127.0.0.1, where the tests serve the site).
 * `human` or `bot` without `-<action>` answers without an `action`, and a bare `@` at the end without a
 * `hostname`, as answers of keys of another kind (v2) or of another setup may.
 */
export async function startFakeSiteverify(secret: string): Promise<FakeSiteverify> {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const form = new URLSearchParams(raw);
      received.push(form);
      const [token = '', hostname = '127.0.0.1'] = (form.get('response') ?? '').split('@');
      const solved = /^(human|bot)(?:-(.+))?$/.exec(token);
      let answer: Record<string, unknown>;
      if (form.get('secret') !== secret) {
        answer = { success: false, 'error-codes': ['invalid-input-secret'] };
      } else if (solved) {
        answer = {
          success: true,
          score: solved[1] === 'human' ? 0.9 : 0.1,
          ...(solved[2] === undefined ? {} : { action: solved[2] }),
          challenge_ts: new Date().toISOString(),
          ...(hostname === '' ? {} : { hostname }),
          'error-codes': [],
        };
      } else {
        answer = { success: false, 'error-codes': ['invalid-input-response'] };
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') {
    throw new Error('fake siteverify has no address');
  }
  return {
    url: `http://127.0.0.1:${address.port}/recaptcha/api/siteverify`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
