import { describe, expect, it } from 'vitest';
import { BLOCK, BLOCK_BYTES, PatternCheck } from './pattern.ts';
import { perAgent, report } from './report.ts';
import { runAgentsBench } from './run.ts';

// The short pass of bench:agents that runs with every test run: the same processes (origin, gateway with
// its hub, agents) at a tiny size. Its timings say nothing on a shared machine; what must hold is that
// every byte through the agent and the direct exit arrives as the origin sent it (bulkRead and newTunnel
// throw otherwise), that idle agents connect to a hub of their own and are measured, and that the report
// has its lines. The figures are the full bench's (npm run bench:agents).

describe('bench:agents, a short pass', () => {
  it('notices a byte that is not what the origin sent', () => {
    const check = new PatternCheck();
    check.take(BLOCK.subarray(0, 1000));
    const wrong = Buffer.from(BLOCK.subarray(1000, 3000));
    wrong[1500] = (wrong[1500] ?? 0) ^ 1;
    check.take(wrong);
    expect(check.bad).toBe(2500);
    const whole = new PatternCheck();
    whole.take(Buffer.concat([BLOCK, BLOCK.subarray(0, 10)]).subarray(0, BLOCK_BYTES - 5));
    whole.take(Buffer.concat([BLOCK.subarray(BLOCK_BYTES - 5), BLOCK.subarray(0, 7)]));
    expect(whole.bad).toBeNull();
    expect(whole.offset).toBe(BLOCK_BYTES + 7);
  });

  it('carries checked bytes through an agent and the direct exit, times new tunnels, measures idle agents', async () => {
    const result = await runAgentsBench({
      bulkBytes: 3 * 1024 * 1024 + 5,
      streams: [1, 2],
      rounds: 2,
      tunnels: 5,
      agentCounts: [20],
      idleMs: 500,
      // More agents than the hub takes handshakes at once, a few at a time: all of them connect (the hub
      // once counted connected agents as handshakes, and refused every one after the limit).
      hubMaxHandshakes: 4,
      agentConcurrency: 4,
      log: () => undefined,
    });
    expect(result.bulk.map((row) => [row.via, row.streams, row.seconds.length]).sort()).toEqual([
      ['agent', 1, 2],
      ['agent', 2, 2],
      ['direct', 1, 2],
      ['direct', 2, 2],
    ]);
    for (const row of result.bulk) {
      expect(row.seconds.every((seconds) => seconds > 0)).toBe(true);
      expect(row.gatewayCpuMs.every((ms) => ms > 0)).toBe(true);
      // The agent's process works only when the bytes go through it.
      expect(row.agentCpuMs.every((ms) => (row.via === 'agent' ? ms > 0 : ms === 0))).toBe(true);
    }
    expect(result.latency.direct.firstByteMs).toHaveLength(5);
    expect(result.latency.agent.firstByteMs).toHaveLength(5);
    const [memory] = result.memory;
    expect(memory).toMatchObject({ wanted: 20, connected: 20, failed: 0, capped: null });
    expect(Number.isFinite(perAgent(memory as (typeof result.memory)[0]).rssKib)).toBe(true);

    const verdicts = report(result).filter((line) => /^(PASS|MISS) /.test(line));
    expect(verdicts.map((line) => line.split(':')[0])).toEqual([
      expect.stringMatching(/^(PASS|MISS) agent throughput at least 0\.7x the direct exit's, 1 stream$/),
      expect.stringMatching(/^(PASS|MISS) agent throughput at least 0\.7x the direct exit's, 2 streams$/),
      expect.stringMatching(/^(PASS|MISS) hub memory per idle agent at 20 under 20 KiB$/),
    ]);
  }, 180_000);
});
