package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import dev.redrive.testing.WorkerProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/**
 * A process claims the retries it handed over when each is due, without polling: queue "timed"
 * polls once an hour, so only the timers can find a due retry, and many retries waiting (longer)
 * in front of it in the PEL don't hold it up.
 */
@QuarkusTest
@TestProfile(WorkerProfile.class)
class RetryTimingTest {

    @Inject
    @Own("timed")
    TestQueue timed;

    @Inject
    @Own("atonce")
    TestQueue atonce;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @Test
    void aDueRetryIsClaimedOnTimeHoweverManyWaitAheadOfIt() {
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            waiting.add(timed.add(Map.of("kind", "busy:3600", "n", i)));
        }
        Await.until("300 jobs to wait for their retry",
                () -> waiting.stream().allMatch(id -> handler.attemptsOf(timed.jobId(id)).size() == 1)
                        && timed.pending() == 300 && pendingUnder(Consumers.RETRY) == 300);
        String flaky = timed.add(Map.of("kind", "flaky:1"));

        Await.until("the flaky job's second attempt to succeed",
                () -> handler.completions(timed.jobId(flaky)) == 1);
        assertEquals(List.of(1, 2), handler.attemptsOf(timed.jobId(flaky)).stream()
                .map(ScriptedHandler.Attempt::attempt).toList());
        Await.until("the flaky job to be acked", () -> timed.pending() == 300);
        // The busy jobs asked for an hour: none ran again, all still wait with one delivery each.
        for (String id : waiting) {
            assertEquals(1, handler.attemptsOf(timed.jobId(id)).size(), "attempts of " + id);
        }
        assertEquals(300, pendingUnder(Consumers.RETRY));
    }

    @Test
    void aRetryNeverStartsBeforeItsBackoff() {
        String flaky = timed.add(Map.of("kind", "flaky:1"));
        Await.until("the flaky job's second attempt to succeed",
                () -> handler.completions(timed.jobId(flaky)) == 1);
        List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(timed.jobId(flaky));
        Duration gap = Duration.between(attempts.get(0).startedAt(), attempts.get(1).startedAt());
        assertTrue(gap.compareTo(Duration.ofMillis(100)) >= 0, "second attempt " + gap + " after the first");
    }

    /**
     * A retry the provider asked to wait a second for runs on the timer of the process that handed
     * it over (the poll is hourly), and no earlier than the wait. Its not-before is on Redis' clock
     * (transfer.lua writes it, claim.lua checks it), which no test can step: the wait is a real
     * second, awaited as a condition.
     */
    @Test
    void aRetryAskedToWaitRunsOnceRedisClockHasPassedTheWait() {
        String busy = timed.add(Map.of("kind", "busy:1"));
        Await.until("the busy job's second attempt to succeed", () -> handler.completions(timed.jobId(busy)) == 1);
        List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(timed.jobId(busy));
        assertEquals(List.of(1, 2), attempts.stream().map(ScriptedHandler.Attempt::attempt).toList());
        Duration gap = Duration.between(attempts.get(0).startedAt(), attempts.get(1).startedAt());
        assertTrue(gap.compareTo(Duration.ofSeconds(1)) >= 0, "second attempt " + gap + " after the first");
        Await.until("the busy job to be acked", () -> pendingOf(busy) == 0);
    }

    /**
     * A timer here that fires before the retry's not-before on Redis' clock (in the millisecond
     * before it, or on a process whose clock runs fast) finds it not due: claim.lua answers how long
     * it still has, and the process times it again for then. Before, the claim skipped it and only
     * the safety-net poll took it, a second or more late (an hour here). The test moves the
     * not-before 2 s past what the hand-over wrote, so the timer set for the 3 s Retry-After fires
     * 2 s early on Redis' clock.
     */
    @Test
    void aRetryRedisSaysIsNotDueYetIsTimedAgainForWhenItIs() {
        String busy = timed.add(Map.of("kind", "busy:3"));
        String hints = RedisKeys.notBefore(timed.stream());
        Await.until("the busy job to wait for its retry, its not-before written",
                () -> pendingUnder(Consumers.RETRY, busy) == 1 && timed.redis().execute("HGET", hints, busy) != null);
        long later = Long.parseLong(timed.redis().execute("HGET", hints, busy).toString()) + 2_000;
        timed.redis().execute("HSET", hints, busy, Long.toString(later));

        Await.until("the busy job's second attempt to succeed", () -> handler.completions(timed.jobId(busy)) == 1);
        List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(timed.jobId(busy));
        assertEquals(List.of(1, 2), attempts.stream().map(ScriptedHandler.Attempt::attempt).toList());
        assertTrue(attempts.get(1).startedAt().toEpochMilli() >= later,
                "second attempt at " + attempts.get(1).startedAt().toEpochMilli() + ", not before " + later);
        Await.until("the busy job to be acked", () -> pendingOf(busy) == 0);
    }

    /**
     * A Retry-After counts from when the job failed, not from when its hand-over reached Redis: the
     * busy job's hand-over is held 2 s by the job read with it, which holds the event loop (a cold
     * or starved process does so in smaller pieces, issue 37), and its not-before is still its
     * first attempt plus the 5 s it asked for, never before, and not 2 s later. Redis' clock and the
     * handler's are this host's: the margin on each side is a second.
     */
    @Test
    void aRetryAfterCountsFromTheFailureNotFromTheHandOver() {
        // One script adds both, so one read brings them and the busy job runs first, in the same turn.
        List<String> ids = new ArrayList<>();
        timed.redis().execute("EVAL", """
                return { redis.call('XADD', KEYS[1], '*', 'kind', ARGV[1]), redis.call('XADD', KEYS[1], '*', 'kind', ARGV[2]) }""",
                "1", timed.stream(), "busy:5", "hog:2000").forEach(r -> ids.add(r.toString()));
        String busy = ids.get(0);
        String hints = RedisKeys.notBefore(timed.stream());
        Await.until("the busy job to wait for its retry, its not-before written",
                () -> pendingUnder(Consumers.RETRY, busy) == 1 && timed.redis().execute("HGET", hints, busy) != null);
        long failed = handler.attemptsOf(timed.jobId(busy)).get(0).startedAt().toEpochMilli();
        long notBefore = Long.parseLong(timed.redis().execute("HGET", hints, busy).toString());
        // The premise: the hand-over ran (its XCLAIM restarted the entry's idle time) after the hog.
        var time = timed.redis().execute("TIME");
        long redisNow = time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
        long handedOver = redisNow - timed.redis().execute("XPENDING", timed.stream(), timed.group(), busy, busy, "1")
                .get(0).get(2).toLong();
        assertTrue(handedOver >= failed + 1_900, "handed over " + (handedOver - failed) + " ms after the failure");
        assertTrue(notBefore >= failed + 5_000, "not-before " + (notBefore - failed) + " ms after the failure");
        assertTrue(notBefore < failed + 6_000, "not-before " + (notBefore - failed) + " ms after the failure");
        Await.until("the busy job's second attempt to succeed", () -> handler.completions(timed.jobId(busy)) == 1);
        Await.until("the busy job to be acked", () -> pendingOf(busy) == 0);
    }

    @Test
    void aRetryDueAtOnceRunsAgainWithItsAttemptCountedInRedis() {
        String flaky = atonce.add(Map.of("kind", "flaky:2"));
        String poison = atonce.add(Map.of("kind", "poison"));
        Await.until("the flaky job done and the poison one parked",
                () -> handler.completions(atonce.jobId(flaky)) == 1 && atonce.parkedCount(poison) == 1);
        assertEquals(List.of(1, 2, 3), handler.attemptsOf(atonce.jobId(flaky)).stream()
                .map(ScriptedHandler.Attempt::attempt).toList());
        assertEquals(List.of(1, 2, 3), handler.attemptsOf(atonce.jobId(poison)).stream()
                .map(ScriptedHandler.Attempt::attempt).toList());
        var record = atonce.parked(poison).orElseThrow().payload();
        assertEquals("3", Streams.text(record.get("attempts")), "the record counts Redis' deliveries");
        Await.until("nothing pending", () -> atonce.pending() == 0);
    }

    private long pendingUnder(String consumer, String id) {
        return timed.redis().execute("XPENDING", timed.stream(), timed.group(), id, id, "1", consumer).size();
    }

    private long pendingOf(String id) {
        return timed.redis().execute("XPENDING", timed.stream(), timed.group(), id, id, "1").size();
    }

    private long pendingUnder(String consumer) {
        return timed.redis().execute("XPENDING", timed.stream(), timed.group(), "-", "+", "1000", consumer).size();
    }
}
