import { SOURCE_GRAMMARS } from '@bytegate/contracts/admin-supply';
import type { Targeting } from '@bytegate/contracts/targeting';

/**
 * The grammar adapters' contract: how a wholesale network (Bright Data, Oxylabs...) is told our targeting
 * and session in its own spelling, and how its refusals are read. The adapters are in ./grammars/, one
 * file per vendor; `grammarAdapter` in ./grammars/index.ts picks one for a source's spec.
 */

/** The vendors' grammars and the generic template (one list with the console's, in the contracts). */
export type GrammarName = (typeof SOURCE_GRAMMARS)[number];

export const GRAMMAR_NAMES: readonly GrammarName[] = SOURCE_GRAMMARS;

/** The wholesale account's own credentials, from the source's URL. */
export interface NetworkAccount {
  username: string;
  password: string;
}

/** A sticky session through us: `key` is stable for as long as our session keeps its exit (it changes when we rotate). */
export interface VendorSession {
  key: string;
  minutes: number;
}

/** How the source was configured (what `bytegate sources add --grammar ... [--template ...]` stores). */
export type GrammarSpec =
  | { grammar: Exclude<GrammarName, 'template'> }
  | { grammar: 'template'; template: string; passwordTemplate?: string | undefined };

/** What the vendor said when it refused a dial, as our routing acts on it. */
export type VendorRefusal =
  | 'no-exit' // nothing for this target: try the next source; the customer may get NO_RAY
  | 'auth' // our account's credentials refused: raise the source's alarm, try the next source
  | 'quota' // our account is out of traffic/credit: alarm, next source
  | 'bad-request' // the vendor refused our spelling (an adapter bug): alarm, next source
  | 'failed'; // anything else (5xx, target unreachable): next source

/**
 * The alarm a refusal raises on its source for staff, in our words (never the vendor's): the refusals
 * that say our account or our adapter needs a person. The gateway's dials and the probe job raise the same.
 */
export const SOURCE_ALARMS: Partial<Record<VendorRefusal, string>> = {
  auth: 'the network refused our account credentials',
  quota: "the network says our account's traffic or credit is used up",
  'bad-request': 'the network refused how we spelled a connection (its grammar adapter needs a look)',
};

/** A refused dial: an HTTP CONNECT answer (header names lower-case) or a SOCKS5 one. */
export type DialRefusal =
  | { protocol: 'http'; status: number; headers: Record<string, string> }
  | { protocol: 'socks5'; reply: number | 'auth' };

export interface GrammarAdapter {
  readonly name: GrammarName;
  /** Null when every part of the targeting can be expressed; else a short reason ("city targeting"). */
  cannotExpress(targeting: Targeting): string | null;
  /** The username and password for one connection. Throws only for targeting cannotExpress refuses. */
  credentials(
    account: NetworkAccount,
    targeting: Targeting,
    session: VendorSession | undefined,
  ): { username: string; password: string };
  /** How to read a refusal of CONNECT (HTTP status + headers, lower-case names) or SOCKS5 (reply code as status 0x01..0x08, or 'auth' for an RFC 1929 failure). */
  classify(refusal: DialRefusal): VendorRefusal;
}
