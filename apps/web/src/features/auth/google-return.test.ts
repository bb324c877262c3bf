import { googleMessages } from '@bytegate/contracts/google';
import { describe, expect, it } from 'vitest';
import { readGoogleReturn } from './google-return.ts';

describe('readGoogleReturn', () => {
  it('reads the two-factor step of a Google sign-in', () => {
    const token = 'a'.repeat(43);
    expect(readGoogleReturn(`#two-factor=${token}`)).toEqual({ kind: 'two-factor', challengeToken: token });
    expect(readGoogleReturn('#two-factor=<script>')).toEqual({
      kind: 'error',
      message: googleMessages.errors.expired,
    });
  });

  it('reads a linked Google account and every reason, an unknown one as a failure', () => {
    expect(readGoogleReturn('#google=connected')).toEqual({ kind: 'connected' });
    expect(readGoogleReturn('#google-error=account_exists')).toEqual({
      kind: 'error',
      message:
        'An account with this email already exists. Sign in with your password, then connect Google in User Settings → Security.',
    });
    expect(readGoogleReturn('#google-error=denied')).toEqual({
      kind: 'error',
      message: 'Google sign-in was cancelled.',
    });
    expect(readGoogleReturn('#google-error=whatever')).toEqual({
      kind: 'error',
      message: 'Google sign-in failed. Please try again.',
    });
  });

  it('leaves any other fragment alone', () => {
    for (const hash of ['', '#', '#pricing', '#signed-in=google', '#google=maybe']) {
      expect(readGoogleReturn(hash)).toBeNull();
    }
  });
});
