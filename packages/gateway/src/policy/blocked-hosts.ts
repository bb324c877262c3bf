import { isIP } from 'node:net';

/**
 * Domains refused by default (`403 HOST_BLOCKED`), by the categories the SPEC's Help Center names for
 * blocked websites (section 2, "Help Center and articles"; also research/providers.md, "Blocked targets"):
 * government, banking and payment, traffic monetization, and high-risk services such as visa centers.
 * An entry blocks the domain and every name under it. Support unblocks per user.
 */
export const BLOCKED_HOST_CATEGORIES = {
  government: [
    'gov',
    'mil',
    'gov.uk',
    'gouv.fr',
    'bund.de',
    'gc.ca',
    'gov.au',
    'govt.nz',
    'go.jp',
    'gov.in',
    'gob.mx',
    'gov.br',
    'gob.es',
    'gov.it',
    'europa.eu',
  ],
  'banking and payment': [
    'paypal.com',
    'stripe.com',
    'adyen.com',
    'squareup.com',
    'venmo.com',
    'wise.com',
    'revolut.com',
    'klarna.com',
    'visa.com',
    'mastercard.com',
    'americanexpress.com',
    'chase.com',
    'bankofamerica.com',
    'wellsfargo.com',
    'citi.com',
    'hsbc.com',
    'barclays.co.uk',
    'santander.com',
    'deutsche-bank.de',
    'bnpparibas.com',
  ],
  'traffic monetization': [
    'popads.net',
    'propellerads.com',
    'adsterra.com',
    'exoclick.com',
    'hilltopads.com',
    'adf.ly',
    'shorte.st',
    'linkvertise.com',
    'ouo.io',
    'hitleap.com',
    '10khits.com',
    'otohits.net',
  ],
  'visa centers and other high-risk services': [
    'vfsglobal.com',
    'tlscontact.com',
    'blsinternational.com',
    'usvisa-info.com',
    'ustraveldocs.com',
    'cgifederal.com',
  ],
} as const satisfies Record<string, readonly string[]>;

/** A lower-case host without a trailing dot; IP literals stay as they are. */
function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/** A set of domains matched by suffix on label boundaries: `gov` blocks `nasa.gov`, not `nasagov.com`. */
export class DomainSet {
  private readonly domains: Set<string>;

  constructor(domains: Iterable<string>) {
    this.domains = new Set([...domains].map(normalizeHost).filter(Boolean));
  }

  /** The listed domain `host` falls under, if any. IP literals never match. */
  match(host: string): string | undefined {
    const name = normalizeHost(host.replace(/^\[|\]$/g, ''));
    if (this.domains.size === 0 || isIP(name) !== 0) {
      return undefined;
    }
    let suffix = name;
    for (;;) {
      if (this.domains.has(suffix)) {
        return suffix;
      }
      const dot = suffix.indexOf('.');
      if (dot === -1) {
        return undefined;
      }
      suffix = suffix.slice(dot + 1);
    }
  }

  get size(): number {
    return this.domains.size;
  }
}

export const DEFAULT_BLOCKED_HOSTS = new DomainSet(Object.values(BLOCKED_HOST_CATEGORIES).flat());
