// bench/agents: exit agents against the direct exit, through the real gateway (issue 30's goals: bulk
// throughput at least 0.7x the direct exit's, under 20 KiB of the hub's memory per idle agent at 1,000
// and 10,000 agents), and the latency an agent adds to a new tunnel, in one run of a few minutes.
// `npm run bench:agents` (`--agents 1000` for fewer, `--bulk-mib 64`, `--rounds 4`, `--tunnels 300`).
// Progress goes to stderr, the report to stdout. Processes: run.ts.
import { parseArgs } from 'node:util';
import { report } from './report.ts';
import { runAgentsBench } from './run.ts';

const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '1000,10000' },
    'bulk-mib': { type: 'string', default: '64' },
    rounds: { type: 'string', default: '4' },
    tunnels: { type: 'string', default: '300' },
  },
});
const whole = (name: string, text: string, min: number) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    process.stderr.write(`--${name} takes a whole number from ${min} (got ${text})\n`);
    process.exit(1);
  }
  return value;
};
const agentCounts = values.agents.split(',').map((text) => whole('agents', text, 1));
const started = performance.now();
const result = await runAgentsBench({
  bulkBytes: whole('bulk-mib', values['bulk-mib'], 1) * 1024 * 1024,
  streams: [1, 4],
  rounds: whole('rounds', values.rounds, 1),
  tunnels: whole('tunnels', values.tunnels, 1),
  agentCounts,
  log: (line) => process.stderr.write(`${line}\n`),
});
const lines = report(result);
lines.push('', `(${((performance.now() - started) / 1000).toFixed(0)} s)`);
process.stdout.write(`${lines.join('\n')}\n`);
