import type { Page } from 'playwright-core';

let counter = 0;

export interface TestAccount {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export function newAccount(): TestAccount {
  counter += 1;
  return {
    firstName: 'Margaret',
    lastName: 'Hamilton',
    email: `margaret.${Date.now()}.${counter}@example.com`,
    password: 'apollo guidance 11',
  };
}

/** Fills and sends the sign-up form as a person would, and waits for the dashboard. */
export async function signUpThroughForm(page: Page, baseUrl: string, account: TestAccount): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel('First Name', { exact: true }).fill(account.firstName);
  await page.getByLabel('Last Name', { exact: true }).fill(account.lastName);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
}

export async function logInThroughForm(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Opens a dashboard section from the sidebar. */
export function openSection(page: Page, name: string): Promise<void> {
  return page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name }).click();
}

/** Tops up through a provider's sandbox checkout, as a person pays, and waits for the confirmation. */
export async function topUp(page: Page, provider: 'Cryptomus' | 'Bitcart', amount: string): Promise<void> {
  await openSection(page, 'Top-up');
  await page.getByRole('button', { name: `$${amount}`, exact: true }).click();
  await page.getByRole('button', { name: `Pay with ${provider}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const frame = page.frameLocator('iframe[title="Payment"]');
  await frame.getByText('TEST MODE').waitFor();
  await frame.getByRole('button', { name: `Pay $${amount}.00` }).click();
  // The dialog polls every 4 s and closes itself once the payment is confirmed.
  await page.getByText('Payment successful').waitFor({ timeout: 20_000 });
  await dialog.waitFor({ state: 'detached' });
}

/** Tops up $10 and buys the smallest datacenter plan (5 GB, $4.95), landing on Proxy Settings as a purchase does. */
export async function buyDatacenterPlan(page: Page): Promise<void> {
  await topUp(page, 'Cryptomus', '10');
  await openSection(page, 'Plans & Pricing');
  await page.getByRole('button', { name: 'Choose Datacenter' }).click();
  await page.getByRole('button', { name: 'Purchase $4.95' }).click();
  await page.getByRole('heading', { level: 1, name: 'Proxy Settings' }).waitFor();
}
