import { createHash, timingSafeEqual } from 'node:crypto';
import { consumeOidcFlow } from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import { hashSessionToken } from '../session-tokens.ts';
import { GoogleFlowError } from './google-flow-error.ts';
import type { GoogleIdentity, GoogleOpenId } from './google-openid.ts';

export interface FinishGoogleFlowProps {
  google: GoogleOpenId;
  /** The redirect URI with every parameter Google sent back (code, state, iss, or error). */
  callbackUrl: URL;
  /** The state this browser's cookie holds: the flow must be the one it started. */
  browserState: string | undefined;
}

/** A finished authorization: why it was started, and who Google says signed in (email verified). */
export interface FinishedGoogleFlow {
  purpose: 'sign_in' | 'link';
  /** The account to link to (`link`). */
  userId: string | null;
  identity: GoogleIdentity;
}

/**
 * Takes Google's answer: the `state` must be this browser's (its cookie) and an unused, unexpired flow,
 * which is then used up whatever happens next, so an answer is never taken twice. A refusal at Google
 * (`error`) ends it; otherwise the code is exchanged with the flow's PKCE verifier and the ID token
 * checked against its nonce (openid-client), and only a verified email address is accepted. Throws
 * GoogleFlowError, carrying the flow's purpose once it is known (where the browser goes back to).
 */
export async function finishGoogleFlow(
  ctx: ServiceContext,
  props: FinishGoogleFlowProps,
): Promise<FinishedGoogleFlow> {
  const params = props.callbackUrl.searchParams;
  const state = params.get('state');
  if (!state || !props.browserState || !isSameText(state, props.browserState)) {
    throw new GoogleFlowError(params.get('error') === 'access_denied' ? 'denied' : 'expired');
  }
  const flow = await consumeOidcFlow(ctx.db, { stateHash: hashSessionToken(state), now: new Date() });
  if (!flow) {
    throw new GoogleFlowError('expired');
  }
  const { purpose } = flow;
  const error = params.get('error');
  if (error) {
    throw new GoogleFlowError(error === 'access_denied' ? 'denied' : 'failed', { purpose });
  }
  let identity: GoogleIdentity;
  try {
    identity = await props.google.identify(props.callbackUrl, {
      state,
      nonce: flow.nonce,
      codeVerifier: flow.codeVerifier,
    });
  } catch (thrown) {
    throw thrown instanceof GoogleFlowError
      ? new GoogleFlowError(thrown.reason, { purpose, cause: thrown.cause })
      : thrown;
  }
  if (!identity.isEmailVerified) {
    throw new GoogleFlowError('email_not_verified', { purpose });
  }
  return { purpose, userId: flow.userId, identity };
}

/** Compares two texts in constant time (of their hashes, so their lengths do not matter). */
function isSameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}
