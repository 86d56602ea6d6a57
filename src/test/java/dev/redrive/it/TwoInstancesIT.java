package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/** Two service processes on one group share the work, and no job is handled twice. */
class TwoInstancesIT {

    static final int JOBS = 2000;

    @Test
    void twoProcessesShareTheWorkWithNoJobHandledTwice() throws Exception {
        try (RedisServer redis = new RedisServer().start();
                Downstream downstream = new Downstream(RedisServer.freePort())) {
            Map<String, String> config = Map.of(
                    "quarkus.redis.hosts", redis.url(),
                    "redrive.queues.work.handler", "http",
                    "redrive.queues.work.http.url", downstream.url("/work"),
                    "redrive.queues.work.concurrency", "16");
            try (RedriveProcess a = new RedriveProcess("a", with(config, "redrive.consumer-name", "worker-a")).start();
                    RedriveProcess b = new RedriveProcess("b", with(config, "redrive.consumer-name", "worker-b")).start()) {
                a.awaitReady(Duration.ofSeconds(60));
                b.awaitReady(Duration.ofSeconds(60));
                Set<String> ids = new HashSet<>();
                try (var cli = new RedisCli(redis.port())) {
                    for (int i = 0; i < JOBS; i++) {
                        ids.add("work/" + cli.xadd("work", "payload", "{\"n\":" + i + "}"));
                    }
                    Await.until("every job to be handled", Duration.ofSeconds(60),
                            () -> downstream.requests().size() >= JOBS && cli.pending("work", "redrive") == 0);
                    List<String> handled = downstream.requests().stream().map(Downstream.Request::jobId).toList();
                    assertEquals(JOBS, handled.size(), "one call per job");
                    assertEquals(ids, new HashSet<>(handled), "every job, none twice");
                    assertEquals(0, cli.xlen("{work}:dlq"));
                    double byA = Metrics.sum(a.managementPort(), "redrive_jobs_completed_total", "queue=\"work\"");
                    double byB = Metrics.sum(b.managementPort(), "redrive_jobs_completed_total", "queue=\"work\"");
                    assertEquals(JOBS, byA + byB, 0.0, "completions counted by the two processes");
                    assertTrue(byA > 0 && byB > 0, "both processes took work: " + byA + " and " + byB);
                }
                System.out.println("TwoInstancesIT: calls per Redrive-Attempt header = " + downstream.requests().stream()
                        .collect(Collectors.groupingBy(r -> r.header("Redrive-Attempt"), Collectors.counting())));
            }
        }
    }

    static Map<String, String> with(Map<String, String> base, String key, String value) {
        var copy = new java.util.HashMap<>(base);
        copy.put(key, value);
        return copy;
    }
}
