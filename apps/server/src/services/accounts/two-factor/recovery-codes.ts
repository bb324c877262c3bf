import type { Executor } from '@bytegate/db';
import { replaceRecoveryCodes } from '@bytegate/db/queries';
import { generateRecoveryCodes, hashRecoveryCode } from './code-rules.ts';

/** New recovery codes for an account, every older one dropped; answers them as shown (`xxxx-xxxx`), once. */
export async function issueRecoveryCodes(db: Executor, params: { userId: string }): Promise<string[]> {
  const codes = generateRecoveryCodes();
  await replaceRecoveryCodes(db, { userId: params.userId, codeHashes: codes.map(hashRecoveryCode) });
  return codes;
}
