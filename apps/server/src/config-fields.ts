import { resolve } from 'node:path';
import { z } from 'zod';
import { checkGeoipDatabaseFile, type GeoipDatabaseKind } from './geoip/database-file.ts';

// The kinds of value settings take (config.ts reads them): each with the message a bad value gets.

export const port = z.coerce.number().int().min(1).max(65535);
export const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));
export const optionalUrl = optionalText.pipe(z.url().optional());
export const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const portRange = z
  .string()
  .regex(/^\d{1,5}-\d{1,5}$/, 'must be a range like 10000-20000')
  .transform((value) => {
    const [first, last] = value.split('-').map(Number) as [number, number];
    return { first, last };
  })
  .refine(
    ({ first, last }) => first >= 1 && last <= 65535 && first <= last,
    'must be an ascending range of ports',
  );

export const portList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const parts = (value ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const ports = parts.map(Number);
    if (ports.some((n) => !Number.isInteger(n) || n < 1 || n > 65535)) {
      ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of ports, like 25,3306' });
      return z.NEVER;
    }
    return ports;
  });

/** smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://user:pass@host:465 (TLS). */
export const smtpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be an smtp:// or smtps:// URL with a host, like smtps://user:password@mail.example:465');

/** One sender: `Name <address@host>` or a bare `address@host`. */
export const mailFrom = z
  .string()
  .regex(
    /^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
    'must be one sender, like Bytegate <no-reply@bytegate.example> or no-reply@bytegate.example',
  );

/** The exit probe's target: a plain http:// or https:// URL (no credentials: it is shown in the console). */
export const probeUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username;
  } catch {
    return false;
  }
}, 'must be an http:// or https:// URL without credentials, like https://probe.example/health');

/**
 * The OpenID Connect issuer signing in with Google goes to (its discovery document is read from it):
 * https, or plain http on a loopback host only (a local provider in tests and development).
 */
export const issuerUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const isLoopback = host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
    return (
      (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback)) &&
      !url.username &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}, 'must be an https:// issuer URL, like https://accounts.google.com (http:// only on a loopback host, for tests)');

/** A GeoIP database of the operator's (geoip/database-file.ts says what is one), as an absolute path. */
export const geoipDatabase = (kind: GeoipDatabaseKind) =>
  z.string().transform((path, ctx) => {
    try {
      checkGeoipDatabaseFile(resolve(path), kind);
      return resolve(path);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  });
