package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.Outage;
import dev.redrive.retry.Failure;
import dev.redrive.testing.SteppableTimers;

/**
 * When an outage began, as its end reports it: at the first transient failure after the last
 * success, on the monotonic clock, whatever the breaker's own timing; terminal failures and calls
 * never made neither start nor end it.
 */
class OutageWatchTest {

    static final QueueSpec QUEUE = new QueueSpec("orders", "orders", "redrive", "http", null, null, 1, null, 3, null,
            "{orders}:dlq", 1, 1, null, null, null, null, true);

    final SteppableTimers time = SteppableTimers.manual(Instant.parse("2026-01-01T00:00:00Z"));
    final OutageWatch watch = new OutageWatch(QUEUE, time);
    final long start = time.elapsedNanos();

    static Failure transientOf(String type) {
        return new Failure(false, true, type, "down", null);
    }

    /** Seconds on the watch's clock since the test's clock started. */
    long at(long nanos) {
        return Duration.ofNanos(nanos - start).toSeconds();
    }

    @Test
    void anOutageBeginsAtTheFirstTransientFailureAfterTheLastSuccessAndEndsWhenItsCircuitCloses() {
        watch.attempted(transientOf("http-503")); // 0s: before a success, forgotten
        time.advance(Duration.ofSeconds(1));
        watch.attempted(null);
        time.advance(Duration.ofSeconds(1));
        watch.attempted(transientOf("http-503")); // 2s: the outage begins
        time.advance(Duration.ofSeconds(1));
        watch.attempted(transientOf("timeout"));
        time.advance(Duration.ofSeconds(1));
        watch.opened(); // 4s
        time.advance(Duration.ofSeconds(1));
        watch.attempted(transientOf("http-503")); // a probe fails: open again, same outage
        watch.opened();
        time.advance(Duration.ofSeconds(1));
        watch.attempted(null); // the probe that closes it
        time.advance(Duration.ofSeconds(1));
        Outage outage = watch.closed().orElseThrow(); // 7s

        assertEquals(2, at(outage.firstFailureNanos()));
        assertEquals(7, at(outage.closedNanos()));
        assertEquals(Map.of("http-503", 2, "timeout", 1), outage.errorTypes());
        assertEquals("[http-503, timeout]", outage.errorTypes().keySet().toString(), "in the order first seen");
        assertTrue(watch.closed().isEmpty(), "an outage ends once");
    }

    @Test
    void terminalFailuresAndCallsNeverMadeNeitherBeginNorEndIt() {
        watch.attempted(Failure.terminal("http-400", "refused"));
        watch.attempted(new Failure(false, false, "circuit-open", "open", null));
        time.advance(Duration.ofSeconds(1));
        watch.attempted(transientOf("http-connect")); // 1s
        time.advance(Duration.ofSeconds(1));
        watch.attempted(Failure.terminal("http-400", "refused"));
        watch.opened();
        time.advance(Duration.ofSeconds(1));
        Outage outage = watch.closed().orElseThrow();

        assertEquals(1, at(outage.firstFailureNanos()));
        assertEquals(Map.of("http-connect", 1), outage.errorTypes());
    }

    @Test
    void aCircuitThatOpensWithNoFailureSinceTheLastSuccessBeginsItsOutageThen() {
        watch.attempted(transientOf("http-503"));
        time.advance(Duration.ofSeconds(1));
        watch.attempted(null); // a call that started before the outage ends well after it began
        time.advance(Duration.ofSeconds(1));
        watch.opened(); // 2s
        time.advance(Duration.ofSeconds(1));
        Outage outage = watch.closed().orElseThrow();

        assertEquals(2, at(outage.firstFailureNanos()));
        assertEquals(Map.of(), outage.errorTypes());
    }

    @Test
    void aCloseWithoutAnOpenEndsNoOutageAndTheOutageAfterAnotherStartsAfresh() {
        watch.attempted(transientOf("http-503"));
        assertTrue(watch.closed().isEmpty(), "the circuit never opened");
        watch.opened();
        time.advance(Duration.ofSeconds(1));
        watch.closed().orElseThrow();
        time.advance(Duration.ofSeconds(4));
        watch.attempted(transientOf("http-502")); // 5s: after the close, a new streak
        watch.opened();
        Outage outage = watch.closed().orElseThrow();

        assertEquals(5, at(outage.firstFailureNanos()));
        assertEquals(Map.of("http-502", 1), outage.errorTypes());
    }

    @Test
    void errorTypesPastTheFirstFewAreCountedTogether() {
        for (int i = 0; i < OutageWatch.ERROR_TYPES + 3; i++) {
            watch.attempted(transientOf("http-5" + String.format("%02d", i)));
        }
        watch.attempted(transientOf("http-500"));
        watch.opened();
        Map<String, Integer> types = watch.closed().orElseThrow().errorTypes();

        assertEquals(OutageWatch.ERROR_TYPES + 1, types.size());
        assertEquals(2, types.get("http-500"));
        assertEquals(3, types.get(Outage.OTHER));
    }
}
