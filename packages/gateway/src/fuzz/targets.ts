import type { RunnableTarget } from './harness.ts';
import { chunkedBodyTarget } from './targets/chunked-body.ts';
import { httpHeadTarget } from './targets/http-head.ts';
import { httpHeadStreamTarget } from './targets/http-head-stream.ts';
import { proxyUsernameTarget } from './targets/proxy-username.ts';
import { socks5HandshakeTarget } from './targets/socks5-handshake.ts';

/** Every fuzz target, in the order `npm run fuzz` runs them; each has its corpus in corpus/<name>/. */
export const fuzzTargets: readonly RunnableTarget[] = [
  httpHeadTarget,
  httpHeadStreamTarget,
  chunkedBodyTarget,
  socks5HandshakeTarget,
  proxyUsernameTarget,
];
