/**
 * The sliding log in Redis: one sorted set per key (member: a unique admission id, score: its time
 * in microseconds), checked and recorded in one script, so the check and the add are one atomic
 * step whichever instance sends them. The same rule as the in-process log
 * (`sliding-log-limiter.ts`): admitted iff fewer than `quota` admissions lie in (now - window, now].
 *
 * KEYS[1]  the key's log
 * ARGV[1]  quota
 * ARGV[2]  window in microseconds
 * ARGV[3]  now in microseconds, or '' for the Redis server's clock (TIME): every instance then
 *          reads the same clock, however skewed their own are
 * ARGV[4]  '1' to count an admission, '0' to only look
 * ARGV[5]  the admission's member, unique across instances
 *
 * Returns { admitted (1/0), admissions in the window, oldest admission's time, now }, times in
 * microseconds (integers below 2^53, so exact as Lua numbers and as replies).
 */
export const SLIDING_LOG_SCRIPT = `
local quota = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now
if ARGV[3] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[3])
end
-- A clock that steps back must not reopen the window: time never runs before the newest admission.
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if newest[2] ~= nil and tonumber(newest[2]) > now then now = tonumber(newest[2]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local admitted = 0
if count < quota then
  admitted = 1
  if ARGV[4] == '1' then
    redis.call('ZADD', KEYS[1], now, ARGV[5])
    -- The log of a key that stops sending disappears once its newest admission leaves the window.
    redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
    count = count + 1
  end
end
local oldest = now
if count > 0 then oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]) end
return { admitted, count, oldest, now }
`;
