import type { Config } from '../../config.ts';

/**
 * The command a partner runs on their machine: the hub's address as agents reach it (the gateway's host
 * name), the token, and the fingerprint to pin when the hub's certificate is the self-signed one.
 */
export function agentCommandLine(props: {
  hubHost: string;
  port: number | string;
  token: string;
  pin: string | null;
}): string {
  const host = props.hubHost.includes(':') ? `[${props.hubHost}]` : props.hubHost;
  return [
    'npx bytegate-agent',
    `--hub https://${host}:${props.port}`,
    `--token ${props.token}`,
    ...(props.pin ? [`--insecure-pin ${props.pin}`] : []),
  ].join(' ');
}

/** The names the hub's self-signed certificate is made for: the gateway's host and address, and loopback. */
export function hubCertificateNames(config: Config): string[] {
  return [
    ...new Set([config.gateway.host, config.gateway.ip, 'localhost', '127.0.0.1'].filter(Boolean)),
  ] as string[];
}
