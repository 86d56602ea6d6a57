package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/** SIGTERM drains: no new reads, running jobs finish, nothing is parked, no attempt is burned. */
class DrainIT {

    static Map<String, String> config(RedisServer redis, Downstream downstream, String shutdownTimeout) {
        Map<String, String> c = new HashMap<>();
        c.put("quarkus.redis.hosts", redis.url());
        c.put("redrive.queues.work.handler", "http");
        c.put("redrive.queues.work.http.url", downstream.url("/work"));
        c.put("redrive.queues.work.concurrency", "4");
        c.put("redrive.queues.work.visibility-timeout", "2s");
        c.put("redrive.shutdown-timeout", shutdownTimeout);
        return c;
    }

    /** A drain is routine: it logs no ERROR and no stack trace, whatever was still running. */
    static void assertQuietShutdown(String log) {
        assertFalse(log.contains(" ERROR "), log);
        assertFalse(log.contains("Exception"), log);
    }

    @Test
    void runningJobsFinishAndTheRestWaitUntouched() throws Exception {
        try (RedisServer redis = new RedisServer().start();
                Downstream downstream = new Downstream(RedisServer.freePort());
                RedisCli cli = new RedisCli(redis.port())) {
            downstream.respond(r -> new Answer(200, "", Map.of(), 1500));
            try (RedriveProcess first = new RedriveProcess("drain-a", config(redis, downstream, "10s")).start()) {
                first.awaitReady(Duration.ofSeconds(60));
                for (int i = 0; i < 10; i++) {
                    cli.xadd("work", "payload", "{\"n\":" + i + "}");
                }
                Await.until("4 jobs in flight", Duration.ofSeconds(20), () -> downstream.requests().size() == 4);
                int exit = first.terminate(Duration.ofSeconds(15));
                assertTrue(exit == 0 || exit == 143, "exits on SIGTERM (0, or 143 as the JVM reports it), was " + exit);
                assertTrue(first.output().contains("drained: every running job finished"), first.output());
                assertQuietShutdown(first.output());
                assertFalse(first.output().contains(" WARN "), "a routine start and drain warns of nothing: " + first.output());
            }
            assertEquals(4, downstream.requests().size(), "nothing new started after SIGTERM");
            assertEquals(0, cli.xlen("{work}:dlq"), "draining never parks");

            downstream.respond(r -> Answer.ok());
            try (RedriveProcess second = new RedriveProcess("drain-b", config(redis, downstream, "10s")).start()) {
                second.awaitReady(Duration.ofSeconds(60));
                Await.until("all 10 jobs done", Duration.ofSeconds(30),
                        () -> downstream.requests().size() >= 10 && cli.pending("work", "redrive") == 0);
            }
            List<Downstream.Request> calls = downstream.requests();
            assertEquals(10, calls.size());
            assertEquals(10, calls.stream().map(Downstream.Request::jobId).distinct().count(), "each job once");
            assertEquals(Map.of("1", 10L), calls.stream()
                    .collect(Collectors.groupingBy(r -> r.header("Redrive-Attempt"), Collectors.counting())),
                    "every job ran on its first attempt: the drain burned none");
        }
    }

    @Test
    void jobsStillRunningAtTheTimeoutStayPendingForStallRecovery() throws Exception {
        try (RedisServer redis = new RedisServer().start();
                Downstream downstream = new Downstream(RedisServer.freePort());
                RedisCli cli = new RedisCli(redis.port())) {
            downstream.respond(r -> "1".equals(r.header("Redrive-Attempt")) ? new Answer(200, "", Map.of(), 4000) : Answer.ok());
            try (RedriveProcess first = new RedriveProcess("drain-c", config(redis, downstream, "500ms")).start()) {
                first.awaitReady(Duration.ofSeconds(60));
                for (int i = 0; i < 2; i++) {
                    cli.xadd("work", "payload", "{\"n\":" + i + "}");
                }
                Await.until("2 jobs in flight", Duration.ofSeconds(20), () -> downstream.requests().size() == 2);
                first.terminate(Duration.ofSeconds(15));
                assertTrue(first.output().contains("they stay pending"), first.output());
                // The jobs left running finish (or fail as the HTTP client closes) after the drain
                // gave up on them: their outcome must not reach a Redis client that is closing.
                assertQuietShutdown(first.output());
            }
            assertEquals(2, cli.pending("work", "redrive"), "left pending, not acked, not parked");
            assertEquals(0, cli.xlen("{work}:dlq"));
            try (RedriveProcess second = new RedriveProcess("drain-d", config(redis, downstream, "10s")).start()) {
                second.awaitReady(Duration.ofSeconds(60));
                Await.until("stall recovery to finish both", Duration.ofSeconds(30),
                        () -> downstream.requests().stream().filter(r -> "2".equals(r.header("Redrive-Attempt"))).count() == 2
                                && cli.pending("work", "redrive") == 0);
            }
            assertEquals(0, cli.xlen("{work}:dlq"));
        }
    }
}
