import { googleMessages, parseGoogleErrorReason } from '@bytegate/contracts/google';

/** What the server said in the fragment when it sent the browser back from Google. */
export type GoogleReturn =
  /** A Google sign-in waiting for its two-factor code (the login page's code step). */
  | { kind: 'two-factor'; challengeToken: string }
  /** A Google account linked from User Settings. */
  | { kind: 'connected' }
  /** Why the sign-in or the link did not finish, as a person reads it. */
  | { kind: 'error'; message: string };

const CHALLENGE_TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * Reads `#two-factor=<token>`, `#google=connected` or `#google-error=<reason>` (an unknown reason reads
 * as a failed sign-in); null for any other fragment. The fragment is never sent to a server, so the
 * challenge token in it is in no access log and no Referer.
 */
export function readGoogleReturn(hash: string): GoogleReturn | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const challengeToken = params.get('two-factor');
  if (challengeToken !== null) {
    return CHALLENGE_TOKEN.test(challengeToken)
      ? { kind: 'two-factor', challengeToken }
      : { kind: 'error', message: googleMessages.errors.expired };
  }
  if (params.get('google') === 'connected') {
    return { kind: 'connected' };
  }
  if (params.has('google-error')) {
    const reason = parseGoogleErrorReason(params.get('google-error')) ?? 'failed';
    return { kind: 'error', message: googleMessages.errors[reason] };
  }
  return null;
}
