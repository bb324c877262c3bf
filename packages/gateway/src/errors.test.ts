import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayErrors } from './errors.ts';

// The refusal table of docs/gateway.md is the customer-facing catalogue: every code the gateway can answer is
// in it, with its status.
const readme = readFileSync(new URL('../../../docs/gateway.md', import.meta.url), 'utf8');
const table = readme.slice(readme.indexOf('| code | status | meaning |'));
const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);

describe('the refusal table of docs/gateway.md', () => {
  it('lists every code of the catalogue with its status, and no other', () => {
    const listed = new Map<string, number>();
    for (const row of rows) {
      const [, codes = '', status = ''] = row.split('|').map((cell) => cell.trim());
      for (const [, code = ''] of codes.matchAll(/`([A-Z_]+)`/g)) {
        listed.set(code, Number(status));
      }
    }
    const expected = Object.entries(gatewayErrors).map(([code, { status }]) => [code, status]);
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(expected));
  });
});
