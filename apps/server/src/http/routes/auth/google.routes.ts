import { type GoogleErrorReason, googleCallbackQuerySchema } from '@bytegate/contracts/google';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../../config.ts';
import { finishGoogleFlow } from '../../../services/accounts/google/finish-google-flow.ts';
import { GoogleFlowError } from '../../../services/accounts/google/google-flow-error.ts';
import type { GoogleOpenId } from '../../../services/accounts/google/google-openid.ts';
import { linkGoogle } from '../../../services/accounts/google/link-google.ts';
import { signInWithGoogle } from '../../../services/accounts/google/sign-in-with-google.ts';
import { GOOGLE_FLOW_TTL_MS, startGoogleFlow } from '../../../services/accounts/google/start-google-flow.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { deviceCookieName, getOrigin, setDeviceCookie, setSessionCookie } from '../../plugins/auth.ts';
import { rateLimitError } from '../../rate-limits.ts';
import { errorResponseSchema } from '../errors.ts';

/** Where Google sends the browser back, under PUBLIC_URL (registered with Google as the redirect URI). */
export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

// Where the browser lands after Google. Everything the web app needs to know rides in the fragment,
// which browsers never send to a server (no access log, no Referer holds a challenge token).
const SIGNED_IN = '/dashboard#signed-in=google';
const LINKED = '/dashboard?section=user-settings#google=connected';
const twoFactorStep = (challengeToken: string) => `/login#two-factor=${challengeToken}`;
const sentBack = (purpose: 'sign_in' | 'link', reason: GoogleErrorReason) =>
  purpose === 'link'
    ? `/dashboard?section=user-settings#google-error=${reason}`
    : `/login#google-error=${reason}`;

/**
 * The cookie that ties Google's answer to the browser that asked: it holds the flow's `state` (httpOnly,
 * SameSite=Lax, which a top-level navigation back from Google still carries; 10 minutes). Without it a
 * stranger could send someone a link with the stranger's own code and state and sign them in to the
 * stranger's account (login CSRF).
 */
export function googleFlowCookieName(config: Config): string {
  return isHttps(config) ? '__Host-bytegate_oidc' : 'bytegate_oidc';
}

const isHttps = (config: Config) => config.publicUrl.startsWith('https:');

export function setGoogleFlowCookie(reply: FastifyReply, config: Config, state: string): void {
  reply.setCookie(googleFlowCookieName(config), state, {
    httpOnly: true,
    secure: isHttps(config),
    sameSite: 'lax',
    path: '/',
    maxAge: GOOGLE_FLOW_TTL_MS / 1000,
  });
}

/**
 * Sign-in with Google (OpenID Connect, Authorization Code flow with PKCE): the login and sign-up pages'
 * button is a link to `/auth/google/start`, which sends the browser to Google; Google sends it back to
 * `/auth/google/callback`, which signs it in (or links Google to the account that started a link in
 * User Settings) and redirects into the web app. These routes answer browsers, so every outcome is a
 * redirect (errors with a reason the web app words), never JSON; only a malformed query (a control
 * character) is a 400 like anywhere else. Without GOOGLE_CLIENT_ID the routes exist and say it is off.
 */
export const googleAuthRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  google: GoogleOpenId | null;
}> = async (app, { ctx, google }) => {
  const { config } = ctx;
  // Counted with the sign-in requests' flood guard (per client address).
  const limitSignIns = app.rateLimit({
    max: config.rateLimits.login.max,
    timeWindow: config.rateLimits.login.windowMs,
    errorResponseBuilder: rateLimitError(),
  });

  /** A flow that ended: back to the login page (or User Settings) with its reason; faults are logged. */
  const sendBack = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (error instanceof GoogleFlowError) {
      if (error.reason === 'unavailable' || error.reason === 'failed') {
        request.log.warn(
          { err: error.cause ?? error, reason: error.reason },
          'Google sign-in did not finish',
        );
      }
      return reply.redirect(sentBack(error.purpose, error.reason), 303);
    }
    request.log.error({ err: error }, 'Google sign-in failed');
    return reply.redirect(sentBack('sign_in', 'failed'), 303);
  };

  app.get(
    '/auth/google/start',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Sign in (or sign up) with Google: redirects the browser to Google, then back to /auth/google/callback',
        response: { 429: errorResponseSchema },
      },
      onRequest: limitSignIns,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!google) {
        return reply.redirect(sentBack('sign_in', 'not_configured'), 303);
      }
      try {
        const { authorizationUrl, state } = await startGoogleFlow(ctx, { google, purpose: 'sign_in' });
        setGoogleFlowCookie(reply, config, state);
        return reply.redirect(authorizationUrl, 303);
      } catch (error) {
        return sendBack(request, reply, error);
      }
    },
  );

  app.get(
    '/auth/google/callback',
    {
      schema: {
        tags: ['auth'],
        summary:
          "Google's redirect back (code and state, or error): signs the browser in, asks for its two-factor code, or links Google; always redirects into the web app",
        querystring: googleCallbackQuerySchema,
        response: { 400: errorResponseSchema, 429: errorResponseSchema },
      },
      onRequest: limitSignIns,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const cookieName = googleFlowCookieName(config);
      const browserState = request.cookies[cookieName];
      reply.clearCookie(cookieName, { httpOnly: true, secure: isHttps(config), sameSite: 'lax', path: '/' });
      if (!google) {
        return reply.redirect(sentBack('sign_in', 'not_configured'), 303);
      }
      try {
        // The redirect URI as registered (PUBLIC_URL's, whatever proxy is in front) with Google's parameters.
        const callbackUrl = new URL(google.redirectUri);
        const query = request.url.indexOf('?');
        callbackUrl.search = query === -1 ? '' : request.url.slice(query);
        const finished = await finishGoogleFlow(ctx, { google, callbackUrl, browserState });
        if (finished.purpose === 'link') {
          await linkGoogle(ctx, {
            userId: finished.userId,
            identity: finished.identity,
            origin: getOrigin(request),
          });
          return reply.redirect(LINKED, 303);
        }
        const outcome = await signInWithGoogle(ctx, {
          identity: finished.identity,
          origin: getOrigin(request),
          deviceToken: request.cookies[deviceCookieName(config)],
        });
        if (outcome.kind === 'challenge') {
          return reply.redirect(twoFactorStep(outcome.challengeToken), 303);
        }
        // Exactly a browser's password sign-in: the session cookie and the device cookie.
        setSessionCookie(reply, config, outcome.token);
        if (outcome.deviceToken) {
          setDeviceCookie(reply, config, outcome.deviceToken);
        }
        return reply.redirect(SIGNED_IN, 303);
      } catch (error) {
        return sendBack(request, reply, error);
      }
    },
  );
};
