package dev.redrive.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.DownstreamResource;
import dev.redrive.testing.RedisResource;
import dev.redrive.testing.Streams;
import dev.redrive.worker.Workers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A provider outage must not eat the budget: while the circuit is open the queue pauses, a probe
 * job tests the water after each breaker delay, and when the provider is back everything is done.
 */
@QuarkusTest
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
@QuarkusTestResource(value = DownstreamResource.class, restrictToAnnotatedClass = true)
@TestProfile(ProviderOutageTest.Profile.class)
class ProviderOutageTest {

    static final int BACKLOG = 1000;
    static final Duration OUTAGE = Duration.ofSeconds(10);

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(
                    Map.entry("redrive.queues.calls.handler", "http"),
                    Map.entry("redrive.queues.calls.attempts", "3"),
                    Map.entry("redrive.queues.calls.backoff", "100ms"),
                    Map.entry("redrive.queues.calls.concurrency", "16"),
                    Map.entry("redrive.queues.calls.http.circuit-breaker.window", "10"),
                    Map.entry("redrive.queues.calls.http.circuit-breaker.failure-ratio", "0.5"),
                    Map.entry("redrive.queues.calls.http.circuit-breaker.delay", "1s"),
                    Map.entry("redrive.queues.calls.block", "200ms"),
                    Map.entry("redrive.queues.calls.retry-poll", "20ms"),
                    Map.entry("redrive.queues.refused.handler", "demo"));
        }
    }

    @Inject
    RedisDataSource redis;

    @Inject
    Workers workers;

    Downstream downstream;

    @Test
    void anOutageWithABacklogEndsWithEveryJobDoneAndOnlyFailedProbesParked() {
        Streams streams = new Streams(redis);
        AtomicBoolean down = new AtomicBoolean(true);
        AtomicInteger failedCalls = new AtomicInteger();
        AtomicInteger failedWhilePaused = new AtomicInteger();
        Set<String> completed = java.util.concurrent.ConcurrentHashMap.newKeySet();
        downstream.respond(r -> {
            if (down.get()) {
                failedCalls.incrementAndGet();
                if (workers.running().get("calls").paused()) {
                    failedWhilePaused.incrementAndGet(); // a probe
                }
                return Answer.status(503, "provider down");
            }
            completed.add(r.jobId());
            return Answer.ok();
        });
        Await.until("the queue to start", Duration.ofSeconds(20), () -> workers.running().containsKey("calls"));
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < BACKLOG; i++) {
            ids.add("calls/" + streams.add("calls", Map.of("payload", "{\"n\":" + i + "}")));
        }
        Await.until("the queue to pause", Duration.ofSeconds(20), () -> workers.running().get("calls").paused());
        Instant outageEnds = Instant.now().plus(OUTAGE);
        Await.until("the outage to last " + OUTAGE, OUTAGE.plusSeconds(5), () -> Instant.now().isAfter(outageEnds));
        int callsDuringOutage = failedCalls.get();
        down.set(false);

        Await.until("every job to be done or parked", Duration.ofSeconds(60),
                () -> completed.size() + streams.all("{calls}:dlq").size() >= BACKLOG
                        && streams.pending("calls", "redrive") == 0);
        long parked = streams.all("{calls}:dlq").size();
        assertEquals(BACKLOG, completed.size() + parked, "every job done or parked, none lost");
        assertTrue(ids.containsAll(completed));
        assertTrue(parked <= failedWhilePaused.get(), parked + " parked, but only " + failedWhilePaused.get()
                + " probes failed");
        assertTrue(callsDuringOutage < 100, "the pause kept the outage from burning attempts: " + callsDuringOutage
                + " calls in " + OUTAGE + " for " + BACKLOG + " jobs");
        System.out.printf("ProviderOutageTest: %d calls failed during the outage (%d of them probes), %d jobs parked, "
                + "%d done%n", callsDuringOutage, failedWhilePaused.get(), parked, completed.size());
    }
}
