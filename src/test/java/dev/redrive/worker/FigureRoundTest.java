package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.redrive.config.QueueRegistry;
import dev.redrive.config.QueueSpec;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.StreamInfo;
import dev.redrive.testing.Await;
import dev.redrive.testing.OutageProfile;
import dev.redrive.testing.RedisResource;
import dev.redrive.time.Timers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The gauges' round against a Redis the test freezes (SIGSTOP): one round at a time, so rounds
 * can't end out of order (RedisOutageIT once saw "works again" between two "failed" lines when a
 * round sent before the outage answered after a later one had failed), and a round Redis doesn't
 * answer gives up after redrive.redis-timeout (2s in this profile) so the next one can start.
 * The round is the test's own, on the service's StreamInfo and the profile's queue.
 */
@QuarkusTest
@TestProfile(OutageProfile.class)
class FigureRoundTest {

    /** The profile's redrive.redis-timeout. */
    static final Duration LIMIT = Duration.ofSeconds(2);

    @Inject
    QueueRegistry queues;

    @Inject
    StreamInfo streams;

    @Inject
    Timers time;

    FigureRound round;
    final AtomicInteger answered = new AtomicInteger();

    @BeforeEach
    void ownRound() {
        List<QueueSpec> specs = List.copyOf(queues.queues().values());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Map<String, QueueMetrics> metrics = new java.util.HashMap<>();
        for (QueueSpec spec : specs) {
            metrics.put(spec.name(), new QueueMetrics(registry, spec.name(), spec.stream(), spec.deadLetters()));
        }
        round = new FigureRound(specs, streams, metrics, time, LIMIT);
        round.observe(specs.get(0).name(), figures -> answered.incrementAndGet());
    }

    @Test
    void aRoundWaitsForTheOneBeforeIt() {
        RedisResource.server().pause();
        try {
            assertTrue(round.refresh(), "the first round starts");
            assertFalse(round.refresh(), "a second round while the first waits on Redis");
            assertFalse(round.refresh(), "nor a third");
        } finally {
            RedisResource.server().resume();
        }
        answeredThenOneMore("the round");
    }

    @Test
    void aRoundRedisDoesNotAnswerGivesUpAfterTheRedisTimeout() {
        RedisResource.server().pause();
        try {
            assertTrue(round.refresh());
            // Without the limit the round would wait for the connection's idle timeout (30s).
            Await.until("the frozen round to give up, after " + LIMIT, Duration.ofSeconds(15), round::refresh);
        } finally {
            RedisResource.server().resume();
        }
        answeredThenOneMore("the second round (the first gave up and is never answered)");
    }

    /** {@code what} is answered once, then one more round starts and is answered: one answer per round started. */
    void answeredThenOneMore(String what) {
        Await.until(what + " to be answered", () -> answered.get() == 1);
        Await.until("the next round to start", round::refresh);
        Await.until("the next round to be answered", () -> answered.get() == 2);
        assertEquals(2, answered.get(), "one answer per round started, none late");
    }
}
