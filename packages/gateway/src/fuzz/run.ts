// `npm run fuzz`: each target replays its corpus, then checks up to 1,000,000 new inputs or runs for
// its time limit, in a process of its own (a hang is ended by the parent and reported with its seed).
// Options: --runs N, --seconds S (per target), --target NAME, --seed N.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { FuzzResult } from './harness.ts';
import { fuzzTargets } from './targets.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '150' },
    target: { type: 'string' },
    seed: { type: 'string' },
    child: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const seed = values.seed === undefined ? undefined : Number(values.seed);

if (values.child) {
  const target = fuzzTargets.find(({ name }) => name === values.target);
  if (!target) {
    throw new Error(`no fuzz target ${values.target}`);
  }
  const result = target.run({ runs, timeLimitMs: seconds * 1000, ...(seed === undefined ? {} : { seed }) });
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  await runAll();
}

/** One target in a child process; a child still running a minute past its limit is hung and is killed. */
function runChild(name: string): Promise<FuzzResult | { target: string; failure: string }> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', '--target', name];
  args.push(
    '--runs',
    String(runs),
    '--seconds',
    String(seconds),
    ...(seed === undefined ? [] : ['--seed', String(seed)]),
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
    child.once('close', (code, signal) => {
      clearTimeout(killer);
      const line = output.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as FuzzResult);
      } catch {
        resolve({
          target: name,
          failure: `the target process ended (${signal ?? `exit ${code}`}) without a result: a hang or a crash`,
        });
      }
    });
  });
}

async function runAll(): Promise<void> {
  const selected = fuzzTargets.filter(({ name }) => !values.target || name === values.target);
  console.log(
    `Fuzzing ${selected.length} targets: up to ${runs.toLocaleString('en')} inputs or ${seconds} s each.\n`,
  );
  let failed = 0;
  for (const target of selected) {
    const result = await runChild(target.name);
    if ('inputs' in result) {
      const perSecond = Math.round(result.inputs / (result.ms / 1000));
      console.log(
        `${target.name.padEnd(18)} ${String(result.corpusInputs).padStart(5)} corpus + ${result.inputs.toLocaleString('en').padStart(9)} inputs in ${(result.ms / 1000).toFixed(1).padStart(6)} s (${perSecond.toLocaleString('en')}/s), seed ${result.seed}: ${result.failure ? 'FAILED' : 'ok'}`,
      );
    } else {
      console.log(`${target.name.padEnd(18)} FAILED`);
    }
    if (result.failure) {
      failed += 1;
      console.log(`\n${result.failure}\n`);
    }
  }
  console.log(`\n${selected.length - failed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}
