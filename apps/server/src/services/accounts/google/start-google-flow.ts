import { createOidcFlow } from '@bytegate/db/queries';
import * as oidc from 'openid-client';
import type { ServiceContext } from '../../context.ts';
import { hashSessionToken } from '../session-tokens.ts';
import type { GoogleOpenId } from './google-openid.ts';

/** How long an authorization may take, from the button to Google's answer. */
export const GOOGLE_FLOW_TTL_MS = 10 * 60 * 1000;

export interface StartGoogleFlowProps {
  google: GoogleOpenId;
  /** `sign_in` (the login and sign-up pages) or `link` (User Settings, signed in as `userId`). */
  purpose: 'sign_in' | 'link';
  userId?: string | undefined;
}

export interface StartedGoogleFlow {
  /** Google's authorization endpoint with this flow's parameters: where the browser goes. */
  authorizationUrl: string;
  /**
   * The flow's `state`, which only its hash is stored under: the route also puts it in a short-lived
   * httpOnly cookie, so that Google's answer is taken only in the browser that asked (login CSRF).
   */
  state: string;
}

/**
 * Starts an Authorization Code flow with PKCE: a random `state`, `nonce` and code verifier (32 random
 * bytes each), kept in `oidc_flows` for 10 minutes (the state as SHA-256; the verifier and nonce are
 * worthless without Google's code). The endpoints are read first, so nothing is stored while Google
 * cannot be reached (GoogleFlowError `unavailable`).
 */
export async function startGoogleFlow(
  ctx: ServiceContext,
  props: StartGoogleFlowProps,
): Promise<StartedGoogleFlow> {
  const checks = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier: oidc.randomPKCECodeVerifier(),
  };
  const authorizationUrl = await props.google.authorizationUrl(checks);
  await createOidcFlow(ctx.db, {
    stateHash: hashSessionToken(checks.state),
    codeVerifier: checks.codeVerifier,
    nonce: checks.nonce,
    purpose: props.purpose,
    userId: props.userId ?? null,
    expiresAt: new Date(Date.now() + GOOGLE_FLOW_TTL_MS),
  });
  return { authorizationUrl, state: checks.state };
}
