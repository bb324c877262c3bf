import { isIP, type Socket } from 'node:net';
import {
  connectThroughExit,
  type DialRefusal,
  EXIT_CONNECT_TIMEOUT_MS,
  type NetworkSource,
  networkExit,
  SOURCE_ALARMS,
  UpstreamRefusal,
  type VendorRefusal,
} from '@bytegate/gateway';
import {
  messageOf,
  PROBE_TIMEOUT_MS,
  type ProbeOutcome,
  type ProbeTarget,
  requestAnswer,
} from '../inventory/probe-through-exit.ts';

/** Enough of the probe target's body for an address, in JSON or as text. */
const MAX_BODY_BYTES = 4096;

export interface NetworkProbeOutcome extends ProbeOutcome {
  /** How the network's grammar read its refusal (null when it did not refuse), and its code as it came. */
  refusal: VendorRefusal | null;
  refusalCode: string | null;
  /** The exit IP the probe target saw, when its answer says it. */
  exitIp: string | null;
  /**
   * The failure was on the target's side of the network (the vendor reached no target, or the target
   * failed once the tunnel opened): when every network fails so, the target is what is down.
   */
  isTargetSide: boolean;
}

/** What each refusal means, in our words (the alarms' where there is one). */
const REFUSAL_WORDS: Record<VendorRefusal, string> = {
  'no-exit': 'the network had no exit for the probe',
  auth: SOURCE_ALARMS.auth ?? 'the network refused our account credentials',
  quota: SOURCE_ALARMS.quota ?? "the network says our account's traffic or credit is used up",
  'bad-request': SOURCE_ALARMS['bad-request'] ?? 'the network refused how we spelled the probe',
  failed: 'the network could not carry the probe',
};

/** A refusal's code as it came: `answered 407` over HTTP, `SOCKS5 reply 1`, or `SOCKS5 authentication`. */
function refusalCode(answer: DialRefusal): string {
  if (answer.protocol === 'http') {
    return `answered ${answer.status}`;
  }
  return answer.reply === 'auth' ? 'SOCKS5 authentication failed' : `SOCKS5 reply ${answer.reply}`;
}

/**
 * A real request through a wholesale network, as a rotating customer connection with no targeting would
 * go: the vendor's endpoint with the account's credentials spelled by the source's grammar, a tunnel to
 * the probe target, `GET` of its path. Any HTTP answer below 500 means the network works. A refusal is
 * read by the grammar's `classify` and told in our words (never the vendor's page); the exit IP is read
 * from the target's answer when it says it (exitIpOfAnswer).
 */
export async function probeThroughNetwork(
  source: NetworkSource,
  target: ProbeTarget,
  options: { timeoutMs?: number } = {},
): Promise<NetworkProbeOutcome> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const failed = (fields: Partial<NetworkProbeOutcome> & { error: string }): NetworkProbeOutcome => ({
    isOk: false,
    connectMs: null,
    refusal: null,
    refusalCode: null,
    exitIp: null,
    isTargetSide: false,
    ...fields,
  });
  let exit: ReturnType<typeof networkExit>;
  try {
    exit = networkExit(source, {}, undefined);
  } catch (error) {
    return failed({ refusal: 'bad-request', error: `the grammar cannot spell a probe: ${messageOf(error)}` });
  }
  const startedAt = Date.now();
  let socket: Socket;
  try {
    socket = await connectThroughExit(
      exit,
      target.address,
      target.port,
      Math.min(timeoutMs, EXIT_CONNECT_TIMEOUT_MS),
    );
  } catch (error) {
    if (error instanceof UpstreamRefusal) {
      const refusal = source.adapter.classify(error.answer);
      const code = refusalCode(error.answer);
      return failed({
        refusal,
        refusalCode: code,
        error: `${REFUSAL_WORDS[refusal]} (${code})`,
        isTargetSide: refusal === 'failed',
      });
    }
    return failed({ error: `the network's endpoint did not open a tunnel: ${messageOf(error)}` });
  }
  const connectMs = Date.now() - startedAt;
  try {
    const answer = await requestAnswer(socket, target, timeoutMs - connectMs, MAX_BODY_BYTES);
    if (answer.status >= 500) {
      return failed({
        connectMs,
        error: `the target answered ${answer.status} through the network`,
        isTargetSide: true,
      });
    }
    return {
      isOk: true,
      connectMs,
      error: null,
      refusal: null,
      refusalCode: null,
      exitIp: exitIpOfAnswer(answer.body),
      isTargetSide: false,
    };
  } catch (error) {
    return failed({ connectMs, error: messageOf(error), isTargetSide: true });
  } finally {
    socket.destroy();
  }
}

/**
 * The address a probe target says it saw: a body that is an address (`203.0.113.7`), or JSON with one in
 * `ip` (ipify, most "what is my IP" services), `origin` (httpbin; the first of a list) or `query`
 * (ip-api). Null for anything else: the probe works all the same, it just learns no exit IP.
 */
export function exitIpOfAnswer(body: string): string | null {
  const text = body.trim();
  if (isIP(text)) {
    return text;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) {
    return null;
  }
  const fields = parsed as Record<string, unknown>;
  for (const name of ['ip', 'origin', 'query']) {
    const value = fields[name];
    const first = typeof value === 'string' ? value.split(',')[0]?.trim() : undefined;
    if (first && isIP(first)) {
      return first;
    }
  }
  return null;
}
