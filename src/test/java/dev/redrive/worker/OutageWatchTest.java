package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.Outage;
import dev.redrive.retry.Failure;
import dev.redrive.testing.SteppableTimers;

/**
 * When an outage began and ended, as the watch reports it once it is over: from the first
 * transient failure after the last success until the circuit closed and a success confirmed it,
 * whichever came later, on the monotonic clock; terminal failures and calls never made neither
 * begin nor end it, and a close no success confirms (a refused job as the probe) ends nothing.
 */
class OutageWatchTest {

    static final QueueSpec QUEUE = new QueueSpec("orders", "orders", "redrive", "http", null, null, 1, null, 3, null,
            "{orders}:dlq", 1, 1, null, null, null, null, true);

    final SteppableTimers time = SteppableTimers.manual(Instant.parse("2026-01-01T00:00:00Z"));
    final List<Outage> reported = new ArrayList<>();
    final OutageWatch watch = new OutageWatch(QUEUE, time, reported::add);
    final long start = time.elapsedNanos();

    static Failure transientOf(String type) {
        return new Failure(false, true, type, "down", null);
    }

    static final Failure REFUSED = Failure.terminal("http-400", "refused");

    void second() {
        time.advance(Duration.ofSeconds(1));
    }

    /** Seconds on the watch's clock since the test's clock started. */
    long at(long nanos) {
        return Duration.ofNanos(nanos - start).toSeconds();
    }

    /** The one outage reported, as "from-to s types". */
    String theOutage() {
        assertEquals(1, reported.size(), "outages reported: " + reported);
        Outage o = reported.get(0);
        return at(o.firstFailureNanos()) + "-" + at(o.endedNanos()) + " s " + o.errorTypes();
    }

    @Test
    void anOutageRunsFromTheFirstTransientFailureAfterTheLastSuccessToTheCloseOfItsCircuit() {
        watch.attempted(transientOf("http-503")); // 0 s: a success follows, forgotten
        second();
        watch.attempted(null);
        second();
        watch.attempted(transientOf("http-503")); // 2 s: the outage begins
        second();
        watch.attempted(transientOf("timeout"));
        second();
        watch.opened(); // 4 s
        second();
        watch.attempted(transientOf("http-503")); // a probe fails: open again, the same outage
        watch.opened();
        second();
        watch.closed(); // 6 s: the probe's success is told after the breaker's close
        assertEquals(List.of(), reported, "not over before its success is told");
        watch.attempted(null);

        assertEquals("2-6 s {http-503=2, timeout=1}", theOutage());
        watch.closed();
        watch.attempted(null);
        assertEquals(1, reported.size(), "an outage is reported once");
    }

    @Test
    void aCloseThatNoSuccessConfirmsEndsNothing() {
        watch.attempted(transientOf("http-503")); // 0 s
        watch.opened();
        second();
        watch.attempted(REFUSED); // the probe was a job the provider refuses: the breaker closes
        watch.closed();
        second();
        watch.attempted(transientOf("http-503")); // the provider is still down: it opens again
        watch.opened();
        second();
        watch.attempted(null); // 3 s: a success before the breaker's close is told
        watch.closed();

        assertEquals("0-3 s {http-503=2}", theOutage());
    }

    @Test
    void anOutageThatARefusedProbeClosedEndsAtItsFirstSuccess() {
        watch.attempted(transientOf("http-503")); // 0 s
        watch.opened();
        second();
        watch.attempted(REFUSED); // 1 s: the probe was a job the provider refuses: the breaker closes
        watch.closed();
        second();
        // 2 s: too few failures to open it again, but they may exhaust jobs: the outage goes on
        watch.attempted(transientOf("http-503"));
        second();
        second();
        watch.attempted(null); // 4 s: the provider answers

        assertEquals("0-4 s {http-503=2}", theOutage());
    }

    @Test
    void terminalFailuresAndCallsNeverMadeNeitherBeginNorEndIt() {
        watch.attempted(REFUSED);
        watch.attempted(new Failure(false, false, "circuit-open", "open", null));
        second();
        watch.attempted(transientOf("http-connect")); // 1 s
        second();
        watch.attempted(REFUSED);
        watch.opened();
        second();
        watch.attempted(null);
        watch.closed();

        assertEquals("1-3 s {http-connect=1}", theOutage());
    }

    @Test
    void aCircuitThatOpensWithNoFailureSinceTheLastSuccessBeginsItsOutageThen() {
        watch.attempted(transientOf("http-503"));
        second();
        watch.attempted(null); // a call made before the outage ends well after it began
        second();
        watch.opened(); // 2 s
        second();
        watch.attempted(null);
        watch.closed();

        assertEquals("2-3 s {}", theOutage());
    }

    @Test
    void aCloseWithoutAnOpenEndsNothingAndTheNextOutageStartsAfresh() {
        watch.attempted(transientOf("http-503"));
        watch.attempted(null);
        watch.closed();
        assertEquals(List.of(), reported, "the circuit never opened");
        watch.attempted(transientOf("http-500"));
        watch.opened();
        watch.attempted(null);
        watch.closed();
        reported.clear();
        time.advance(Duration.ofSeconds(5));
        watch.attempted(transientOf("http-502")); // 5 s: after the last outage, a new one
        watch.opened();
        watch.attempted(null);
        watch.closed();

        assertEquals("5-5 s {http-502=1}", theOutage());
    }

    @Test
    void errorTypesPastTheFirstFewAreCountedTogether() {
        for (int i = 0; i < OutageWatch.ERROR_TYPES + 3; i++) {
            watch.attempted(transientOf("http-5" + String.format("%02d", i)));
        }
        watch.attempted(transientOf("http-500"));
        watch.opened();
        watch.attempted(null);
        watch.closed();
        Map<String, Integer> types = reported.get(0).errorTypes();

        assertEquals(OutageWatch.ERROR_TYPES + 1, types.size());
        assertEquals(2, types.get("http-500"));
        assertEquals(3, types.get(Outage.OTHER));
    }
}
