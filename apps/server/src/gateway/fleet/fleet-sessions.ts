import type { SessionDirectory } from '@bytegate/gateway';
import type { Result } from 'ioredis';
import type { FleetMember } from './fleet-member.ts';

/** The exit a session is bound to, or `proposed` bound for the window when none is; with the time left. */
const CLAIM = `
local bound = redis.call('GET', KEYS[1])
if bound then
  return {bound, redis.call('PTTL', KEYS[1])}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {ARGV[1], tonumber(ARGV[2])}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    bytegateClaimSession(key: string, proposed: string, ttlMs: number): Result<[string, number], Context>;
  }
}

/**
 * Sticky sessions in Redis: one key per session (`planId|sessid`, `planId|port:N`) holding its exit id,
 * expiring with its window, so the same `sessid` leaves through the same exit on every gateway. Redis
 * away, each gateway keeps its own bindings (StickySessions) until it is back.
 */
export class FleetSessions implements SessionDirectory {
  constructor(private readonly member: FleetMember) {
    member.redis.defineCommand('bytegateClaimSession', { numberOfKeys: 1, lua: CLAIM });
  }

  private key(session: string): string {
    return this.member.key(`session:${session}`);
  }

  async claim(session: string, proposedExitId: string, ttlMs: number) {
    if (this.member.isDegraded) {
      return null;
    }
    try {
      const [exitId, left] = await this.member.redis.bytegateClaimSession(
        this.key(session),
        proposedExitId,
        ttlMs,
      );
      return { exitId, ttlMs: left > 0 ? left : ttlMs };
    } catch (error) {
      this.member.failed(error);
      return null;
    }
  }

  rebind(session: string, exitId: string, ttlMs: number): void {
    if (this.member.isDegraded) {
      return;
    }
    this.member.redis
      .set(this.key(session), exitId, 'PX', ttlMs)
      .catch((error: unknown) => this.member.failed(error));
  }
}
