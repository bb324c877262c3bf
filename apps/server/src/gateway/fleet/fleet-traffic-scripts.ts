// The Lua scripts of the fleet's shared traffic (fleet-traffic.ts), each run by Redis in one step.
import type { Result } from 'ioredis';

/**
 * A draw: what the fleet may still grant is total - used - the live members' figures; grants a slice of
 * it and writes the member's new figure (absolute, so a lost answer is mended by the next write). A
 * member whose lease is gone loses its figure here.
 */
export const DRAW = `
local total = redis.call('HGET', KEYS[1], 'total')
if not total then
  return {-1, 0}
end
local used = tonumber(redis.call('HGET', KEYS[1], 'used') or '0')
local fields = redis.call('HGETALL', KEYS[1])
local others = 0
local own = 'm:' .. ARGV[1]
for i = 1, #fields, 2 do
  local field = fields[i]
  if string.sub(field, 1, 2) == 'm:' and field ~= own then
    if redis.call('EXISTS', ARGV[4] .. string.sub(field, 3)) == 1 then
      others = others + tonumber(fields[i + 1])
    else
      redis.call('HDEL', KEYS[1], field)
    end
  end
end
local held = tonumber(ARGV[2])
local left = tonumber(total) - used - others - held
local grant = 0
if left > 0 then
  local slice = math.max(tonumber(ARGV[5]), math.min(tonumber(ARGV[6]), math.floor(left / 16)))
  grant = math.min(math.max(slice, tonumber(ARGV[3])), left)
end
redis.call('HSET', KEYS[1], own, string.format('%d', held + grant))
return {grant, left - grant}
`;

/** The database's figures for a plan; newer `at` wins for the total, the larger `used` wins. */
export const SYNC = `
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or '-1')
if tonumber(ARGV[2]) >= at then
  redis.call('HSET', KEYS[1], 'total', ARGV[1], 'at', ARGV[2])
end
local used = tonumber(redis.call('HGET', KEYS[1], 'used') or '-1')
if tonumber(ARGV[3]) > used then
  redis.call('HSET', KEYS[1], 'used', ARGV[3])
end
redis.call('PEXPIRE', KEYS[1], 604800000)
return 1
`;

/**
 * A usage write of `ARGV[2]` bytes was stored: the member's figure drops by them and `used` rises to the
 * database's figure after the write, in one step, so neither counts them twice. By how much, not to
 * what: a draw on its way when the write ended has its grant in the figure already and this process
 * does not know it yet, so an absolute figure from now would drop that grant (see settle).
 */
export const SETTLE = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local field = 'm:' .. ARGV[1]
local figure = tonumber(redis.call('HGET', KEYS[1], field) or '0') - tonumber(ARGV[2])
redis.call('HSET', KEYS[1], field, string.format('%d', math.max(0, figure)))
local used = tonumber(redis.call('HGET', KEYS[1], 'used') or '-1')
if tonumber(ARGV[3]) > used then
  redis.call('HSET', KEYS[1], 'used', ARGV[3])
end
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    bytegateDraw(
      key: string,
      member: string,
      held: number,
      need: number,
      alivePrefix: string,
      minDraw: number,
      maxDraw: number,
    ): Result<[number, number], Context>;
    bytegateSyncPlan(key: string, total: number, at: number, used: number): Result<number, Context>;
    bytegateSettle(key: string, member: string, stored: number, used: number): Result<number, Context>;
  }
}
