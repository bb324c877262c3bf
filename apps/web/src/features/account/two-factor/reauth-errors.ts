import { ApiError } from '../../../api/api-client.ts';

/**
 * Where a refusal of an action asked again (password change, deletion, turning two-factor off) belongs:
 * under the password, under the two-factor code, or (null) over the form as a whole.
 */
export function fieldOfReauthError(error: unknown): 'password' | 'code' | null {
  if (!(error instanceof ApiError)) {
    return null;
  }
  if (error.code === 'WRONG_PASSWORD') {
    return 'password';
  }
  return error.code === 'TWO_FACTOR_REQUIRED' || error.code === 'INVALID_TWO_FACTOR_CODE' ? 'code' : null;
}

/** The server may have spent a recovery code even when the action failed later: worth reading the count again. */
export function mayHaveUsedCode(error: unknown): boolean {
  return !(error instanceof ApiError) || error.code !== 'TWO_FACTOR_REQUIRED';
}
