import * as oidc from 'openid-client';
import type { Config } from '../../../config.ts';
import { GoogleFlowError } from './google-flow-error.ts';

/** Who Google says signed in: the ID token's claims (or the UserInfo endpoint's, when the token has none). */
export interface GoogleIdentity {
  /** The Google account's stable id (`sub`): accounts are found by it, never by email. */
  subject: string;
  email: string;
  isEmailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
}

/** What an authorization under way must match when Google sends the browser back. */
export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Seconds each request to Google (discovery, token, JWKS, UserInfo) may take. */
const REQUEST_TIMEOUT_S = 10;

/**
 * The OpenID Connect client of sign-in with Google, on `openid-client`: the issuer's endpoints come
 * from its discovery document, read on first use (so a Google outage never stops start-up) and kept;
 * a failed read is tried again on the next sign-in. Authorization Code flow with PKCE (S256), `state`
 * and `nonce`; openid-client checks the ID token's signature (the issuer's JWKS), issuer, audience,
 * nonce and expiry. Plain http is allowed only for a loopback issuer (config.ts refuses any other).
 */
export class GoogleOpenId {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly settings: NonNullable<Config['google']>,
    /** `${PUBLIC_URL}/api/auth/google/callback`, as registered with Google. */
    readonly redirectUri: string,
  ) {}

  /** Where to send the browser: Google's authorization endpoint with this flow's parameters. */
  async authorizationUrl(checks: AuthorizationChecks): Promise<string> {
    const configuration = await this.discover();
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    }).href;
  }

  /**
   * Exchanges the code Google sent back (in `callbackUrl`, the redirect URI with Google's parameters)
   * for the ID token, validated against the checks, and answers who signed in. Throws GoogleFlowError:
   * `unavailable` when Google cannot be reached, `failed` for anything refused.
   */
  async identify(callbackUrl: URL, checks: AuthorizationChecks): Promise<GoogleIdentity> {
    const configuration = await this.discover();
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) {
        throw new GoogleFlowError('failed');
      }
      // Google puts the email and the names in the ID token; a provider that keeps them for UserInfo
      // (OpenID Connect's default for the code flow) is asked there, for the same subject.
      const claims: Record<string, unknown> =
        typeof idToken.email === 'string'
          ? idToken
          : { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken };
      if (typeof claims.email !== 'string' || claims.email === '') {
        throw new GoogleFlowError('failed');
      }
      return {
        subject: idToken.sub,
        email: claims.email,
        isEmailVerified: claims.email_verified === true || claims.email_verified === 'true',
        givenName: textClaim(claims.given_name),
        familyName: textClaim(claims.family_name),
        name: textClaim(claims.name),
      };
    } catch (error) {
      throw asFlowError(error);
    }
  }

  private discover(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(
        new URL(this.settings.issuerUrl),
        this.settings.clientId,
        { redirect_uris: [this.redirectUri], response_types: ['code'] },
        oidc.ClientSecretBasic(this.settings.clientSecret),
        {
          timeout: REQUEST_TIMEOUT_S,
          execute: this.settings.issuerUrl.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
        },
      )
      .catch((error: unknown) => {
        this.configuration = null;
        throw new GoogleFlowError('unavailable', { cause: error });
      });
    return this.configuration;
  }
}

function textClaim(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Codes of openid-client's errors that mean Google did not answer properly (a network fault, 5xx, a timeout). */
const UNREACHABLE = new Set([
  'OAUTH_TIMEOUT',
  'OAUTH_ABORT',
  'OAUTH_RESPONSE_IS_NOT_CONFORM',
  'OAUTH_RESPONSE_IS_NOT_JSON',
]);

/** Google unreachable (`unavailable`), the person said no (`denied`), or anything else refused (`failed`). */
function asFlowError(error: unknown): GoogleFlowError {
  if (error instanceof GoogleFlowError) {
    return error;
  }
  if (error instanceof oidc.AuthorizationResponseError) {
    return new GoogleFlowError(error.error === 'access_denied' ? 'denied' : 'failed', { cause: error });
  }
  if (
    error instanceof TypeError ||
    (error instanceof oidc.ClientError && error.code !== undefined && UNREACHABLE.has(error.code))
  ) {
    return new GoogleFlowError('unavailable', { cause: error });
  }
  return new GoogleFlowError('failed', { cause: error });
}
