import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AGENT_VERSION, ExitAgent } from './agent.ts';
import { settingsProblems } from './limits.ts';
import type { AgentSettings } from './protocol.ts';

const USAGE = `bytegate-agent ${AGENT_VERSION}: carries Bytegate customers' connections from this machine's address

Usage: bytegate-agent --hub https://HOST:PORT --token TOKEN [options]

  --hub URL              the gateway's agent hub (given with your token)
  --token TOKEN          this agent's token (from your partner dashboard)
  --insecure-pin FP      trust a self-signed hub whose certificate has this SHA-256 fingerprint
  --config FILE          a JSON file with any of these options (command-line options win)
  --name NAME            what your dashboard calls this machine
  --max-tunnels N        at most N connections at once
  --gb-per-day N         at most N GB a day (both directions, your local day)
  --hours FROM-TO        only between these hours, local time (8-23; 22-6 across midnight)
  --no-plain-http        never carry plain HTTP (which this machine could read); TLS only
  --bind ADDRESS         connect from this local address
  --allow-private CIDR   (lab only) let tunnels reach this private range; repeatable
  --help, --version

What it can see: the address and port of each connection, and the bytes of plain-HTTP requests unless
--no-plain-http; never the contents of HTTPS. It never connects to your own network: private, loopback
and link-local addresses are refused after it resolves each name itself, and mail ports are closed.`;

interface ConfigFile extends AgentSettings {
  hub?: string;
  token?: string;
  insecurePin?: string;
  name?: string;
  bind?: string;
  allowPrivate?: string[];
}

function fail(message: string): never {
  process.stderr.write(`bytegate-agent: ${message}\n`);
  process.exit(64);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      hub: { type: 'string' },
      token: { type: 'string' },
      'insecure-pin': { type: 'string' },
      config: { type: 'string' },
      name: { type: 'string' },
      'max-tunnels': { type: 'string' },
      'gb-per-day': { type: 'string' },
      hours: { type: 'string' },
      'no-plain-http': { type: 'boolean' },
      bind: { type: 'string' },
      'allow-private': { type: 'string', multiple: true },
      help: { type: 'boolean' },
      version: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values.version) {
    process.stdout.write(`${AGENT_VERSION}\n`);
    return;
  }
  let config: ConfigFile = {};
  if (values.config) {
    try {
      config = JSON.parse(readFileSync(values.config, 'utf8')) as ConfigFile;
    } catch (error) {
      fail(`cannot read the config file ${values.config}: ${(error as Error).message}`);
    }
  }
  const number = (text: string | undefined, fallback: number | null | undefined) =>
    text === undefined ? fallback : Number(text);
  const settings: AgentSettings = {
    maxTunnels: number(values['max-tunnels'], config.maxTunnels) ?? null,
    gbPerDay: number(values['gb-per-day'], config.gbPerDay) ?? null,
    hours: values.hours ?? config.hours ?? null,
    plainHttp: values['no-plain-http'] ? false : (config.plainHttp ?? null),
  };
  const problems = settingsProblems(settings);
  if (problems.length > 0) {
    fail(problems.join('; '));
  }
  const hub = values.hub ?? config.hub;
  const token = values.token ?? config.token ?? process.env.BYTEGATE_AGENT_TOKEN;
  if (!hub || !token) {
    fail(`--hub and --token are required\n\n${USAGE}`);
  }
  let agent: ExitAgent;
  try {
    agent = new ExitAgent({
      hub,
      token,
      pin: values['insecure-pin'] ?? config.insecurePin,
      name: values.name ?? config.name,
      localAddress: values.bind ?? config.bind,
      settings,
      allowPrivate: values['allow-private'] ?? config.allowPrivate ?? [],
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  agent.on('online', (welcome, hubUrl) => {
    const place = [welcome.location.city, welcome.location.state, welcome.location.country]
      .filter(Boolean)
      .join(', ');
    log(
      `online as agent ${welcome.agentId} on ${hubUrl}: ${welcome.location.address} (${place || 'unlocated'}), ${welcome.poolType} pool`,
    );
  });
  agent.on('offline', (reason, retryInMs, hubUrl) =>
    log(`offline from ${hubUrl} (${reason}); connecting again in ${(retryInMs / 1000).toFixed(1)} s`),
  );
  agent.on('refused', (refusal) => {
    log(`the hub refused this agent (${refusal.reason}): ${refusal.message}`);
    process.exitCode = 2;
  });
  const stop = () => {
    log('stopping: open tunnels end now');
    agent.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  log(`connecting to ${hub}`);
  agent.start();
}

main();
