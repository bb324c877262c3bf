import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';

/** Where Cryptomus shows its hosted checkout (the `url` of an invoice), framed by the checkout dialog. */
export const CRYPTOMUS_CHECKOUT_ORIGIN = 'https://pay.cryptomus.com';

// Google's documented sources for reCAPTCHA under a CSP (developers.google.com/recaptcha/docs/faq).
const RECAPTCHA_SCRIPTS = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAMES = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];

const originOf = (url: string) => new URL(url).origin;

/**
 * The Content-Security-Policy directives for this deployment. Scripts come only from our own origin
 * (no inline script anywhere), plus reCAPTCHA's when the bot check is on; frames only from our origin
 * and the configured payment providers' checkouts; nobody may frame us. Styles allow inline attributes:
 * Radix and sonner position their layers with them, and a style cannot run code.
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const isHttps = config.publicUrl.startsWith('https:');
  const scripts = ["'self'", ...(config.recaptcha ? RECAPTCHA_SCRIPTS : [])];
  const frames = ["'self'", ...(config.recaptcha ? RECAPTCHA_FRAMES : [])];
  if (config.cryptomus) {
    frames.push(CRYPTOMUS_CHECKOUT_ORIGIN);
  }
  if (config.bitcart) {
    frames.push(originOf(config.bitcart.adminUrl));
  }
  return {
    'default-src': ["'self'"],
    'script-src': scripts,
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(config.recaptcha ? RECAPTCHA_FRAMES : [])],
    'frame-src': [...new Set(frames)],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    ...(isHttps ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * Security headers on every response (API, pages, assets, errors): the CSP above, `nosniff`, a
 * referrer policy that sends only our origin to other sites, `X-Frame-Options: DENY` for browsers
 * without frame-ancestors, and HSTS when the public URL is https. Pages that a checkout dialog frames
 * (the payment sandboxes) relax framing to our own origin with `allowFramingBySelf`.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const isHttps = opts.config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(opts.config) },
    // Payment checkouts open their own windows; they keep working with an opener of their own origin.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: isHttps ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    xContentTypeOptions: true,
    // Deprecated or harmful in today's browsers.
    xXssProtection: false,
    originAgentCluster: true,
    xDnsPrefetchControl: { allow: false },
    xDownloadOptions: true,
    xPermittedCrossDomainPolicies: { permittedPolicies: 'none' },
  });
});

/** For a page that our own checkout dialog shows in a frame: framing by our origin only. */
export function allowFramingBySelf(config: Config): Record<string, string[]> {
  return { ...contentSecurityPolicy(config), 'frame-ancestors': ["'self'"] };
}
