package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Downstream;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * A Redis outage is logged once when it starts and once when Redis is back, by each part that
 * keeps calling Redis (the shared blocking reader, the gauges' round), however long it lasts. The
 * retry scheduler and stall recovery of an idle queue don't call Redis at all, so they may log
 * nothing; if they do, once.
 */
class RedisOutageIT {

    @Test
    void anOutageIsLoggedOnceWhenItStartsAndOnceWhenItEnds() throws Exception {
        try (RedisServer redis = new RedisServer("--appendonly", "yes", "--appendfsync", "always").start();
                Downstream downstream = new Downstream(RedisServer.freePort());
                RedriveProcess service = new RedriveProcess("outage", Map.of(
                        "quarkus.redis.hosts", redis.url(),
                        "redrive.queues.work.handler", "http",
                        "redrive.queues.work.http.url", downstream.url("/work"),
                        "redrive.gauge-interval", "100ms",
                        "redrive.queues.work.visibility-timeout", "2s",
                        "quarkus.log.category.\"dev.redrive.redis.BlockingReader\".level", "DEBUG")).start()) {
            service.awaitReady(Duration.ofSeconds(60));
            redis.kill();
            // The reader tries again once a second, quietly (DEBUG): three tries span 20 or more gauge rounds.
            service.await("the outage to outlast three tries of the reader", Duration.ofSeconds(30),
                    () -> service.logLines("waiting for new entries of group redrive still fails") >= 3);
            redis.start();
            service.await("the reader and the gauges to log that Redis is back", Duration.ofSeconds(30),
                    () -> service.logLines("waiting for new entries of group redrive works again") == 1
                            && service.logLines("refreshing the queues' gauges works again") == 1);
            assertEquals(1, service.logLines("waiting for new entries of group redrive failed"), service.output());
            assertEquals(1, service.logLines("refreshing the queues' gauges failed"), service.output());
            assertTrue(service.logLines("looking for due retries of work failed") <= 1, service.output());
            assertTrue(service.logLines("stall recovery on work failed") <= 1, service.output());
        }
    }
}
