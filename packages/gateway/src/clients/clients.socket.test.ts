import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserClients } from './browser-clients.ts';
import { expectedBody, type Matrix, startMatrix, WS_MESSAGE } from './harness.ts';
import { type ClientCase, nodeClients } from './node-clients.ts';
import { programClients } from './program-clients.ts';

// Real clients through the real gateway (issue 20): every client on every path it supports, each
// checked for the exact answer and for billing equal to the bytes on the wire, measured by a relay
// outside the gateway. `npm test` runs the short part (curl and undici on HTTP, CONNECT and SOCKS5);
// `npm run clients` (CLIENTS_MATRIX=full) runs them all. A client this machine lacks is skipped with
// its reason printed, never passed.

const isFull = process.env.CLIENTS_MATRIX === 'full';
const cases = [...programClients, ...nodeClients, ...browserClients].filter(
  (entry) => isFull || entry.isShort,
);
const planned = cases.map((entry) => ({ entry, skip: entry.unavailable?.() }));
for (const { entry, skip } of planned) {
  if (skip) {
    console.warn(`SKIPPED ${entry.client} (${entry.path}): ${skip}`);
  }
}
if (isFull) {
  console.warn('NOT IN THE MATRIX: curl 8 on ws:// (Debian 12 has curl 7.88, without WebSocket support).');
}

let matrix: Matrix;
beforeAll(async () => {
  matrix = await startMatrix();
});
afterAll(async () => {
  await matrix?.close();
});

const expected = (entry: ClientCase) =>
  entry.target === 'ws' ? WS_MESSAGE.toUpperCase() : expectedBody(entry.target);

describe(`real clients through the gateway (${isFull ? 'full matrix' : 'short matrix; all: npm run clients'})`, () => {
  for (const { entry, skip } of planned) {
    it.skipIf(skip !== undefined)(
      `${entry.client}: ${entry.path}, the exact answer, billed as carried`,
      async () => {
        const { output, wire, billed } = await matrix.measure((env) => entry.run(env));
        expect(output).toBe(expected(entry));
        expect(wire).toBeGreaterThan(0);
        expect(billed).toBe(wire);
      },
    );
  }
});
