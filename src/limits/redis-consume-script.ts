// One rate-limit decision as a Redis script, so that counting and deciding are one atomic step
// for every instance sharing the Redis. It mirrors MemoryRateLimiter.decide() line for line and
// returns the subject's state; the Decision itself is built in TypeScript from that state with
// the same functions the memory limiter uses (subject-state.ts).
//
// KEYS[1]  the subject's hash: m, ms, mr (minute, served, rejected), d, ds, dr (day ...), b (banned until, ms)
// KEYS[2]  optional: a string key read on the same round trip (the kept listings' token)
// ARGV     now (ms, the server's clock), perMinute, perDay, ban threshold, ban duration (ms)
// returns  {outcome, m, ms, mr, d, ds, dr, b, KEYS[2]'s value}; outcome 0 served, 1 rate limited, 2 banned
export const CONSUME_SCRIPT = `
local now = tonumber(ARGV[1])
local per_minute = tonumber(ARGV[2])
local per_day = tonumber(ARGV[3])
local threshold = tonumber(ARGV[4])
local ban_ms = tonumber(ARGV[5])
local minute = math.floor(now / 60000)
local day = math.floor(now / 86400000)

local s = redis.call('HMGET', KEYS[1], 'm', 'ms', 'mr', 'd', 'ds', 'dr', 'b')
local m0, d0, b0 = tonumber(s[1]), tonumber(s[4]), tonumber(s[7]) or 0
local m, ms, mr = m0 or minute, tonumber(s[2]) or 0, tonumber(s[3]) or 0
local d, ds, dr = d0 or day, tonumber(s[5]) or 0, tonumber(s[6]) or 0
local b = b0
if m ~= minute then m, ms, mr = minute, 0, 0 end
if d ~= day then d, ds, dr = day, 0, 0 end

local outcome
if b > now then
  outcome = 2
elseif ms < per_minute and ds < per_day then
  ms, ds = ms + 1, ds + 1
  outcome = 0
else
  mr, dr = mr + 1, dr + 1
  if mr > threshold * per_minute or dr > threshold * per_day then
    b = now + ban_ms
    outcome = 2
  else
    outcome = 1
  end
end

-- Only what changed is written: in the usual case two counters. The expiry (nothing in the hash
-- matters after the day window and any ban have ended) moves only with the day or a ban; on a
-- clock that runs with Redis's, the moment it names is the same for every call in between.
if m ~= m0 or d ~= d0 or b ~= b0 then
  redis.call('HSET', KEYS[1], 'm', m, 'ms', ms, 'mr', mr, 'd', d, 'ds', ds, 'dr', dr, 'b', b)
  if d ~= d0 or b ~= b0 then
    redis.call('PEXPIRE', KEYS[1], math.floor(math.max((d + 1) * 86400000, b) - now + 60000))
  end
elseif outcome == 0 then
  redis.call('HSET', KEYS[1], 'ms', ms, 'ds', ds)
elseif outcome == 1 then
  redis.call('HSET', KEYS[1], 'mr', mr, 'dr', dr)
end
-- false is a nil in the reply, where a Lua nil would end the list.
local shared = false
if KEYS[2] then shared = redis.call('GET', KEYS[2]) end
return {outcome, m, ms, mr, d, ds, dr, b, shared}
`;
