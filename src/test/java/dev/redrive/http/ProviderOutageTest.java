package dev.redrive.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.HttpProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import dev.redrive.worker.Workers;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * A provider outage must not eat the budget: while the circuit is open the queue pauses, a probe
 * job tests the water after each breaker delay, and when the provider is back everything is done.
 */
@QuarkusTest
@TestProfile(HttpProfile.class)
class ProviderOutageTest {

    static final int BACKLOG = 1000;
    /** How long the outage lasts, in breaker delays: each ends with one probe, which fails. */
    static final int PROBES = 10;

    /** The provider, set by DownstreamResource: down while the test says so. */
    Downstream downstream;

    @Inject
    Workers workers;

    @Inject
    @Own("outage")
    TestQueue outage;

    @Test
    void anOutageWithABacklogEndsWithEveryJobDoneAndOnlyFailedProbesParked() {
        AtomicBoolean down = new AtomicBoolean(true);
        AtomicInteger failedCalls = new AtomicInteger();
        AtomicInteger failedWhilePaused = new AtomicInteger();
        Set<String> completed = java.util.concurrent.ConcurrentHashMap.newKeySet();
        downstream.respond(r -> {
            if (down.get()) {
                failedCalls.incrementAndGet();
                if (Boolean.TRUE.equals(workers.pausedByQueue().get("outage"))) {
                    failedWhilePaused.incrementAndGet(); // a probe
                }
                return Answer.status(503, "provider down");
            }
            completed.add(r.jobId());
            return Answer.ok();
        });
        Await.until("the queue to start", () -> workers.pausedByQueue().containsKey("outage"));
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < BACKLOG; i++) {
            ids.add(outage.jobId(outage.add(Map.of("payload", "{\"n\":" + i + "}"))));
        }
        Await.until("the queue to pause",
                () -> Boolean.TRUE.equals(workers.pausedByQueue().get("outage")));
        Await.until(PROBES + " probes to fail while the queue is paused",
                () -> failedWhilePaused.get() >= PROBES);
        int callsDuringOutage = failedCalls.get();
        down.set(false);

        Await.until("every job to be done or parked",
                () -> completed.size() + outage.deadLetters().size() >= BACKLOG
                        && outage.pending() == 0);
        long parked = outage.deadLetters().size();
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
