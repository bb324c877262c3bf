// The subjects of bench/gateway: the gateway, its bare relay and Node's floor (runner.ts), an earlier
// checkout's gateway (BENCH_GATEWAY_BEFORE), and the peers installed or found here. Each runs in a process
// of its own; one that cannot start is listed as unavailable with the reason.
import { join } from 'node:path';
import {
  commandVersion,
  ensureDebianPackage,
  ensureProxyChain,
  firstLine,
  hasCommand,
  proxyChainVersion,
  spawnReady,
  startDante,
  startSquid,
  startTinyproxy,
} from './processes.ts';
import type { Subject } from './report.ts';

export interface SubjectsContext {
  root: string;
  cacheDir: string;
  /** Scratch folder for the peers' configuration. */
  work: string;
  fdLimit: number;
  /** The origin ports the proxies may reach, comma separated. */
  openPorts: string;
  subjects: Subject[];
  notes: string[];
  versions: string[];
}

export async function startSubjects(context: SubjectsContext): Promise<void> {
  const { root, cacheDir, work, fdLimit, openPorts, subjects, notes, versions } = context;
  const runner = (mode: string, ports: string) =>
    spawnReady<{ httpPort: number; socksPort?: number }>(
      process.execPath,
      ['--import', 'tsx', 'bench/gateway/runner.ts', mode, ports, join(cacheDir, 'node_modules')],
      root,
    );
  subjects.push({ name: 'direct', kind: 'baseline' });
  const nodeProxies: Array<[string, Subject['kind'], string, Partial<Subject>]> = [
    ['bytegate', 'ours', 'bytegate', { auth: true }],
    ['bare relay', 'reference', 'bare', {}],
    // Node's own floor per connection and per hop, for the targets the gateway misses (runner.ts).
    ['node floor', 'reference', 'floor', { only: ['newconnect', 'newlatency', 'rps', 'latency'] }],
  ];
  for (const [name, kind, mode, extra] of nodeProxies) {
    try {
      const started = await runner(mode, openPorts);
      subjects.push({
        name,
        kind,
        child: started.child,
        pid: started.child.pid,
        httpPort: started.ready.httpPort,
        ...(started.ready.socksPort ? { socksPort: started.ready.socksPort } : {}),
        ...extra,
      });
    } catch (error) {
      subjects.push({ name, kind, unavailable: `could not start: ${firstLine(error)}` });
    }
  }
  // BENCH_GATEWAY_BEFORE=<another checkout>: its gateway runs beside this one in the same run (the
  // checkout's bench/gateway/runner.ts must import its own packages/gateway), for before/after figures.
  const before = process.env.BENCH_GATEWAY_BEFORE;
  if (before) {
    try {
      const started = await spawnReady<{ httpPort: number; socksPort?: number }>(
        process.execPath,
        ['--import', 'tsx', join(before, 'bench/gateway/runner.ts'), 'bytegate', openPorts],
        before,
      );
      subjects.push({
        name: 'bytegate before',
        kind: 'reference',
        child: started.child,
        pid: started.child.pid,
        httpPort: started.ready.httpPort,
        auth: true,
        ...(started.ready.socksPort ? { socksPort: started.ready.socksPort } : {}),
      });
    } catch (error) {
      subjects.push({
        name: 'bytegate before',
        kind: 'reference',
        unavailable: `could not start: ${firstLine(error)}`,
      });
    }
  }
  const bytegate = subjects.find((subject) => subject.name === 'bytegate');
  if (bytegate && !bytegate.unavailable && bytegate.socksPort === undefined) {
    notes.push('TODO gateway SOCKS5: not built yet (createGateway answered no socksPort)');
  }

  const squidMissing = ensureDebianPackage('squid', 'squid');
  if (squidMissing) {
    subjects.push({ name: 'squid', kind: 'peer', unavailable: `not available: ${squidMissing}` });
  } else {
    versions.push(`squid ${commandVersion('squid', ['-v'], /Version (\S+)/)}`);
    try {
      const squid = await startSquid(work, fdLimit);
      subjects.push({
        name: 'squid',
        kind: 'peer',
        child: squid.child,
        pid: squid.child.pid,
        httpPort: squid.port,
      });
    } catch (error) {
      subjects.push({ name: 'squid', kind: 'peer', unavailable: `not available: ${firstLine(error)}` });
    }
  }

  const chainMissing = ensureProxyChain(cacheDir);
  if (chainMissing) {
    subjects.push({ name: 'proxy-chain', kind: 'peer', unavailable: `not available: ${chainMissing}` });
  } else {
    versions.push(`proxy-chain ${proxyChainVersion(cacheDir)}`);
    try {
      const chain = await runner('proxy-chain', openPorts);
      subjects.push({
        name: 'proxy-chain',
        kind: 'peer',
        child: chain.child,
        pid: chain.child.pid,
        httpPort: chain.ready.httpPort,
      });
    } catch (error) {
      subjects.push({ name: 'proxy-chain', kind: 'peer', unavailable: `not available: ${firstLine(error)}` });
    }
  }

  const tinyMissing = ensureDebianPackage('tinyproxy', 'tinyproxy');
  if (tinyMissing) {
    subjects.push({ name: 'tinyproxy', kind: 'peer', unavailable: `not available: ${tinyMissing}` });
  } else {
    versions.push(`tinyproxy ${commandVersion('tinyproxy', ['-v'], /tinyproxy (\S+)/)}`);
    try {
      const tiny = await startTinyproxy(work);
      subjects.push({
        name: 'tinyproxy',
        kind: 'peer',
        child: tiny.child,
        pid: tiny.child.pid,
        httpPort: tiny.port,
      });
    } catch (error) {
      subjects.push({ name: 'tinyproxy', kind: 'peer', unavailable: `not available: ${firstLine(error)}` });
    }
  }
  // 3proxy is not in Debian 12's archive and the registries here carry no build of it.
  if (hasCommand('3proxy')) {
    notes.push('3proxy is installed but this bench has no configuration for it yet');
  } else {
    subjects.push({
      name: '3proxy',
      kind: 'peer',
      unavailable: 'not available: no 3proxy binary (not in Debian 12; no build reachable from here)',
    });
  }

  const danteMissing = ensureDebianPackage('danted', 'dante-server');
  if (danteMissing) {
    subjects.push({ name: 'dante', kind: 'peer', unavailable: `not available: ${danteMissing}` });
  } else {
    versions.push(`dante ${commandVersion('danted', ['-v'], /Dante v(\S+?)\.?\s/)}`);
    try {
      const dante = await startDante(work);
      subjects.push({
        name: 'dante',
        kind: 'peer',
        child: dante.child,
        pid: dante.child.pid,
        socksPort: dante.port,
      });
    } catch (error) {
      subjects.push({ name: 'dante', kind: 'peer', unavailable: `not available: ${firstLine(error)}` });
    }
  }
}
