package dev.redrive.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
import dev.redrive.testing.TestConfig;
import dev.redrive.worker.Workers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A provider outage must not eat the budget: while the circuit is open the queue pauses, a probe
 * job tests the water after each breaker delay, and when the provider is back everything is done.
 */
@QuarkusTest
@WithTestResource(RedisResource.class)
@WithTestResource(DownstreamResource.class)
@TestProfile(ProviderOutageTest.Profile.class)
class ProviderOutageTest {

    static final int BACKLOG = 1000;
    /** How long the outage lasts, in breaker delays: each ends with one probe, which fails. */
    static final int PROBES = 10;

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return TestConfig.empty()
                    .queue("calls").handler("http").attempts(3).backoff("100ms").retryPoll("20ms").set("concurrency", "16")
                            .set("http.circuit-breaker.window", "10").set("http.circuit-breaker.failure-ratio", "0.5")
                            // short, so the outage spans many breaker cycles in little time
                            .set("http.circuit-breaker.delay", "200ms").and()
                    .queue("refused").handler("demo").and()
                    .build();
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
                if (Boolean.TRUE.equals(workers.pausedByQueue().get("calls"))) {
                    failedWhilePaused.incrementAndGet(); // a probe
                }
                return Answer.status(503, "provider down");
            }
            completed.add(r.jobId());
            return Answer.ok();
        });
        Await.until("the queue to start", Duration.ofSeconds(20), () -> workers.pausedByQueue().containsKey("calls"));
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < BACKLOG; i++) {
            ids.add("calls/" + streams.add("calls", Map.of("payload", "{\"n\":" + i + "}")));
        }
        Await.until("the queue to pause", Duration.ofSeconds(20),
                () -> Boolean.TRUE.equals(workers.pausedByQueue().get("calls")));
        Await.until(PROBES + " probes to fail while the queue is paused", Duration.ofSeconds(30),
                () -> failedWhilePaused.get() >= PROBES);
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
                + " calls over " + PROBES + " breaker delays for " + BACKLOG + " jobs");
        System.out.printf("ProviderOutageTest: %d calls failed during the outage (%d of them probes), %d jobs parked, "
                + "%d done%n", callsDuringOutage, failedWhilePaused.get(), parked, completed.size());
    }
}
