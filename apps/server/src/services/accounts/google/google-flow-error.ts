import type { GoogleErrorReason } from '@bytegate/contracts/google';

/**
 * Why a Google sign-in or link did not finish. It ends in a redirect, not a JSON answer: the browser is
 * sent back to the login page (or User Settings) with the reason in the URL fragment, where the web app
 * shows its message (`googleMessages.errors`). `cause` keeps what went wrong for the server log.
 */
export class GoogleFlowError extends Error {
  readonly reason: GoogleErrorReason;
  /** Why the flow was started, once known: a link goes back to User Settings, a sign-in to the login page. */
  readonly purpose: 'sign_in' | 'link';

  constructor(reason: GoogleErrorReason, options: { cause?: unknown; purpose?: 'sign_in' | 'link' } = {}) {
    super(`Google sign-in ended: ${reason}`, { cause: options.cause });
    this.name = 'GoogleFlowError';
    this.reason = reason;
    this.purpose = options.purpose ?? 'sign_in';
  }
}
