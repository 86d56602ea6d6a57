package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * Decisions two processes must agree on are taken on Redis' clock (TIME), never on a clock the
 * caller sends: a retry's not-before (written by transfer.lua, read by claim.lua) and a redrive
 * task's lease (redrive-claim.lua). Each test plays a process whose own clock is an hour off; the
 * scripts take no clock from it, so what it would have sent (its stale "now") can't matter.
 */
class RedisClockTest {

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();
    static final long HOUR = Duration.ofHours(1).toMillis();
    static int streams;

    /** A replica an hour behind held every Retry-After retry an hour late. */
    @Test
    void aRetryPastItsNotBeforeOnRedisClockIsClaimedByAProcessWhoseClockIsBehind() throws Exception {
        String s = waitingForRetry();
        redis.call("HSET", RedisKeys.notBefore(s), "1-1", Long.toString(redisMillis() - 1));

        Response claimed = claim(s, "late-replica");

        assertEquals(1, claimed.size(), "the due retry is claimed");
        assertEquals("[1-1, late-replica, 2]", redis.ownerAndCount(s, "g", "1-1"));
        assertEquals(0, redis.call("HLEN", RedisKeys.notBefore(s)).toInteger(), "its hint is spent");
    }

    /**
     * And a replica an hour ahead would run it before the provider's Retry-After. The claim says
     * how long the retry still has on Redis' clock, so the caller times it again for then (a
     * timer that fired in the millisecond before left it to the safety-net poll, a second late).
     */
    @Test
    void aRetryBeforeItsNotBeforeOnRedisClockWaitsAndTheClaimSaysForHowLong() throws Exception {
        String s = waitingForRetry();
        long before = redisMillis();
        redis.call("HSET", RedisKeys.notBefore(s), "1-1", Long.toString(before + HOUR / 2));

        Response answer = claim(s, "early-replica");
        long after = redisMillis();

        assertEquals(1, answer.size(), "one answer: not due yet");
        assertEquals("1-1", answer.get(0).get(0).toString());
        assertEquals(1, answer.get(0).get(1).toInteger(), "its delivery count, unchanged");
        long left = answer.get(0).get(2).toLong();
        assertTrue(left <= HOUR / 2 && left >= HOUR / 2 - (after - before), "ms to go on Redis' clock: " + left);
        assertEquals("[1-1, redrive-retry, 1]", redis.ownerAndCount(s, "g", "1-1"));
        assertEquals(1, redis.call("HLEN", RedisKeys.notBefore(s)).toInteger(), "its hint stays");
    }

    /** A hint no one can read as a time (someone else's value) holds nothing: the retry is not stuck behind it. */
    @Test
    void aNotBeforeThatIsNoTimeHoldsNothing() throws Exception {
        for (String value : List.of("nan", "soon")) {
            String s = waitingForRetry();
            redis.call("HSET", RedisKeys.notBefore(s), "1-1", value);

            Response claimed = claim(s, "replica");

            assertEquals(1, claimed.size(), value);
            assertEquals(ResponseType.MULTI, claimed.get(0).get(2).type(), value + ": claimed, with its fields");
            assertEquals("[1-1, replica, 2]", redis.ownerAndCount(s, "g", "1-1"), value);
        }
    }

    /** A not-before between two milliseconds (someone else's value) is answered rounded up, never short of it. */
    @Test
    void aNotBeforeBetweenMillisecondsIsAnsweredRoundedUp() throws Exception {
        String s = waitingForRetry();
        // Exact only when Redis' clock stays in one millisecond from before to after: tried until it does.
        for (int tries = 0; tries < 100; tries++) {
            long before = redisMillis();
            redis.call("HSET", RedisKeys.notBefore(s), "1-1", (before + 1_000) + ".5");
            Response answer = claim(s, "replica");
            if (redisMillis() == before) {
                assertEquals(1_001, answer.get(0).get(2).toLong(), "1,000.5 ms to go, answered whole");
                return;
            }
        }
        throw new AssertionError("Redis' clock never stayed in one millisecond for three calls");
    }

    /** A hint far past what transfer.lua writes is answered as at most a week, an integer the caller can time. */
    @Test
    void aFarNotBeforeIsAnsweredAsAtMostAWeek() throws Exception {
        String s = waitingForRetry();
        redis.call("HSET", RedisKeys.notBefore(s), "1-1", "1e300");

        Response answer = claim(s, "replica");

        assertEquals(Duration.ofDays(7).toMillis(), answer.get(0).get(2).toLong());
        assertEquals("[1-1, redrive-retry, 1]", redis.ownerAndCount(s, "g", "1-1"));
    }

    /** The writer's half: the not-before is Redis' clock plus the Retry-After, whoever hands the job over. */
    @Test
    void theHandOverStoresRedisClockPlusTheRetryAfter() throws Exception {
        String s = waitingForRetry();
        long before = redisMillis();

        redis.eval(LuaScripts.Script.TRANSFER, List.of(s, RedisKeys.notBefore(s)),
                List.of("g", "redrive-retry", -1, "1-1", 60_000));

        long after = redisMillis();
        long stored = Long.parseLong(redis.call("HGET", RedisKeys.notBefore(s), "1-1").toString());
        assertTrue(stored >= before + 60_000 && stored <= after + 60_000,
                "stored " + stored + ", Redis' clock was " + before + ".." + after);
    }

    /** A runner whose clock is ahead took a live runner's task; one behind held a dead runner's for an hour. */
    @Test
    void aRedriveLeaseIsTakenAndTestedOnRedisClock() throws Exception {
        String task = "{clock}:dlq:redrive:t1";
        String index = "{clock}:dlq:redrives";
        redis.call("HSET", task, "state", "running", "owner", "a", "lease-until", Long.toString(redisMillis() + 10_000));
        redis.call("ZADD", index, "1", "t1");

        Response taken = redis.eval(LuaScripts.Script.REDRIVE_CLAIM, List.of(task, index), List.of("b", 15_000, "t1"));

        assertEquals(0, taken.toInteger(), "a's lease has not run out on Redis' clock");
        assertEquals("a", redis.call("HGET", task, "owner").toString());

        redis.call("HSET", task, "lease-until", Long.toString(redisMillis() - 1));
        long before = redisMillis();
        taken = redis.eval(LuaScripts.Script.REDRIVE_CLAIM, List.of(task, index), List.of("b", 15_000, "t1"));
        long after = redisMillis();

        assertEquals(1, taken.toInteger(), "a's lease ran out on Redis' clock");
        assertEquals("b", redis.call("HGET", task, "owner").toString());
        long until = Long.parseLong(redis.call("HGET", task, "lease-until").toString());
        assertTrue(until >= before + 15_000 && until <= after + 15_000,
                "lease until " + until + ", Redis' clock was " + before + ".." + after);
    }

    /** Entry 1-1, read once by consumer w, then handed to the retry consumer (delivery count 1). */
    private static String waitingForRetry() throws Exception {
        String s = "clock" + (++streams);
        redis.call("XADD", s, "1-1", "kind", "job");
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");
        redis.call("XCLAIM", s, "g", "redrive-retry", "0", "1-1", "JUSTID");
        return s;
    }

    /** claim.lua for a due retry (no least idle time), as the caller saw it: owner redrive-retry, count 1. */
    private static Response claim(String stream, String worker) throws Exception {
        return redis.eval(LuaScripts.Script.CLAIM, List.of(stream, RedisKeys.notBefore(stream)),
                List.of("g", worker, 0, "1-1", "redrive-retry", 1));
    }

    private static long redisMillis() throws Exception {
        Response t = redis.call("TIME");
        return Long.parseLong(t.get(0).toString()) * 1000 + Long.parseLong(t.get(1).toString()) / 1000;
    }
}
