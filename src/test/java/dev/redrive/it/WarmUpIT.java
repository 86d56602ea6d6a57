package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.RedisCli;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * The warm-up as shipped (worker/WarmUp): before its queues start, the packaged service runs jobs
 * of its own on a private stream. No configured handler sees them (the provider gets exactly the
 * one real job, waiting in its queue since before the start), no queue reads before the warm-up
 * ends, nothing of it is counted in /q/metrics, and its keys are set to expire.
 */
class WarmUpIT {

    @Test
    void theWarmUpRunsJobsOfItsOwnBeforeTheQueuesStartAndLeavesNothingBehind() throws Exception {
        try (RedisServer redis = new RedisServer().start();
                Downstream downstream = new Downstream(RedisServer.freePort());
                RedisCli cli = new RedisCli(redis.port())) {
            downstream.respond(r -> Answer.ok());
            String waiting = cli.xadd("work", "payload", "{\"n\":1}");
            Map<String, String> config = new HashMap<>(DrainIT.config(redis, downstream, "10s"));
            config.put("redrive.warm-up.jobs", "3000");
            try (RedriveProcess p = new RedriveProcess("warm-up", config).withWarmUp().start()) {
                p.awaitReady(Duration.ofSeconds(60));
                Await.until("the waiting job handled", Duration.ofSeconds(20),
                        () -> downstream.requests().size() == 1 && cli.pending("work", "redrive") == 0);
                // Readiness counts the queue a moment before its start-up line: wait for the line.
                Await.until("the queue's start-up line", Duration.ofSeconds(20),
                        () -> p.output().contains("queue work: reading work"));
                String log = p.output();
                int warmed = log.indexOf("warm-up: 3000 jobs of redrive's own");
                assertTrue(warmed >= 0 && log.indexOf("queue work: reading work") > warmed,
                        "the queue starts after the warm-up:\n" + log);
                assertEquals(List.of("work/" + waiting), downstream.requests().stream().map(Downstream.Request::jobId).toList(),
                        "the provider saw the real job, once, and none of the warm-up's");
                assertEquals(1.0, Metrics.sum(p.managementPort(), "redrive_jobs_completed_total", "queue=\"work\""));
                assertEquals(0.0, Metrics.sum(p.managementPort(), "redrive_jobs_completed_total", "warm-up"),
                        "the warm-up's jobs are not the service's figures");

                List<String> left = new ArrayList<>();
                for (Object key : (List<?>) cli.call("KEYS", "redrive:warm-up:*")) {
                    long ttl = (Long) cli.call("PTTL", RedisCli.text(key));
                    assertTrue(ttl > 0 && ttl <= 10_000, key + " expires within 10 s of the end, PTTL " + ttl);
                    left.add(RedisCli.text(key));
                }
                // Read a second or two after the warm-up ended: its stream is still there, expiring.
                assertTrue(left.stream().anyMatch(k -> k.startsWith("redrive:warm-up:{work}:")) && left.size() <= 2,
                        "the stream (in the queue's slot) and its not-before hash, both expiring: " + left);
            }
        }
    }

    /** A process with no queue (the API and console only) has no job to be late for: it does not warm up. */
    @Test
    void aProcessWithNoQueueDoesNotWarmUp() throws Exception {
        try (RedisServer redis = new RedisServer().start();
                RedisCli cli = new RedisCli(redis.port());
                RedriveProcess p = new RedriveProcess("no-queue", Map.of("quarkus.redis.hosts", redis.url()))
                        .withWarmUp().start()) {
            p.awaitReady(Duration.ofSeconds(60));
            Await.until("its start-up line", Duration.ofSeconds(20), () -> p.output().contains("works 0 queue(s)"));
            assertTrue(!p.output().contains("warm-up:"), p.output());
            assertEquals(List.of(), cli.call("KEYS", "redrive:warm-up:*"));
        }
    }
}
