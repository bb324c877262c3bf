import { hash, verify } from '@node-rs/argon2';
import { passwordWork } from './password-work.ts';

// argon2id (the library's default algorithm) with OWASP's recommended memory and time cost.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// Every hash and check goes through the process's bounded queue of password work.

export function hashPassword(password: string): Promise<string> {
  return passwordWork.run(() => hash(password, options));
}

/**
 * Whether an account's stored hash is a password at all: anything but argon2 (`!`) means none, for an
 * erased account or one created with Google that has not set a password yet.
 */
export function isPasswordHash(passwordHash: string): boolean {
  return passwordHash.startsWith('$argon2');
}

/** False for a wrong password and for a hash that is not argon2 (an erased account). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (!isPasswordHash(passwordHash)) {
    return false;
  }
  return passwordWork.run(() => verify(passwordHash, password));
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check, for sign-ins with an unknown email,
 * so response timing does not reveal which emails have accounts.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy password that matches nothing');
  const known = await dummyHash;
  await passwordWork.run(() => verify(known, password));
  return false;
}
