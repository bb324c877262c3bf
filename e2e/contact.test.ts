import { rmSync } from 'node:fs';
import { createDb } from '@bytegate/db';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import { startServerAndBrowser } from './support/fixture.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let page: Page;
let stop: () => Promise<void>;
const posted: string[] = [];

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser());
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (request) => {
    if (request.url().endsWith('/api/contact') && request.method() === 'POST') {
      posted.push(request.postData() ?? '');
    }
  });
});
afterAll(() => stop?.());

describe('the contact page', () => {
  it('says which fields are required without sending anything', async () => {
    await page.goto(`${server.url}/contact`);
    await page.getByRole('heading', { level: 1, name: 'Contact' }).waitFor();
    expect(await page.title()).toBe('Contact | Bytegate');
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('alert').getByText('Please fill in all required fields.').waitFor();
    expect(posted).toEqual([]);
  });

  it("answers 'Message Sent!' and keeps the message, and has the 7-day money-back guarantee in its FAQ", async () => {
    await page.getByLabel('Email', { exact: true }).fill('grace@example.com');
    await page.getByLabel('Message', { exact: true }).fill('Can you open port 25 for our monitoring?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Message Sent!').first().waitFor();
    expect(posted).toHaveLength(1);
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');

    await page.getByText('Can I get my money back?').click();
    await page.getByText('7-day money-back guarantee covers every pool', { exact: false }).waitFor();
    await saveScreenshot(page, 'contact-1280');

    // The message is in the product's database (read once the server has stopped).
    await server.stop({ keepData: true });
    const handle = await createDb({ dataDir: server.dataDir });
    try {
      const result = (await handle.db.execute(
        sql`select name, email, subject, message from contact_messages`,
      )) as unknown as { rows: Array<Record<string, unknown>> };
      expect(result.rows).toEqual([
        {
          name: 'Grace Hopper',
          email: 'grace@example.com',
          subject: null,
          message: 'Can you open port 25 for our monitoring?',
        },
      ]);
    } finally {
      await handle.close();
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
});
