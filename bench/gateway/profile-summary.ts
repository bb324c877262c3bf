// The top frames of a .cpuprofile (node --cpu-prof): self time by function and by file, and the
// gateway's own functions by inclusive time. profile.ts prints it; run on its own for any profile:
//   node --import tsx bench/gateway/profile-summary.ts <file.cpuprofile>
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function summarize(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) {
      continue;
    }
    total += us;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const where = frame.url
      ? `${frame.url.replace(/^file:\/\/.*\/(packages|node_modules)\//, '$1/').replace(/^node:/, '')}`
      : '';
    const name = `${frame.functionName || '(anonymous)'} ${where ? `${basename(where)}:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const group = where
      ? where.startsWith('packages/')
        ? where
        : where.startsWith('internal/') || !where.includes('/')
          ? `node:${where.split('/').slice(0, 2).join('/')}`
          : where
      : frame.functionName;
    byFile.set(group, (byFile.get(group) ?? 0) + us);
  }
  // Inclusive time of the gateway's own functions: every sample whose stack passes through them.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame?.url.includes('/packages/')) {
        seen.add(`${frame.functionName || '(anonymous)'} ${basename(frame.url)}:${frame.lineNumber + 1}`);
      }
    }
    for (const name of seen) {
      inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  });
  const busy = total - idle;
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([name, us]) =>
          `  ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`,
      )
      .join('\n');
  return [
    `profile ${file}`,
    `sampled ${(total / 1000).toFixed(0)} ms, busy (not idle) ${(busy / 1000).toFixed(0)} ms; shares are of busy time`,
    'top functions by self time:',
    top(byFunction, 25),
    'by file (node internals grouped by module):',
    top(byFile, 15),
    'gateway functions by inclusive time (self + what they call):',
    top(inclusive, 20),
  ].join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const file = process.argv[2];
  if (!file) {
    throw new Error('usage: profile-summary.ts <file.cpuprofile>');
  }
  process.stdout.write(`${summarize(file)}\n`);
}
