import { randomInt } from 'node:crypto';

const LOGIN_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out += alphabet[randomInt(alphabet.length)];
  }
  return out;
}

/**
 * Proxy credentials for a new plan. Both are URL-safe (no characters that need escaping in
 * `http://login:password@host`), and the login never contains `_` so the targeting grammar
 * (`login__cr.us`) can split on `__`.
 */
export function createPlanCredentials(): { login: string; password: string } {
  return { login: `bg${randomString(LOGIN_ALPHABET, 10)}`, password: randomString(PASSWORD_ALPHABET, 20) };
}
