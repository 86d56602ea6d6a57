package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/** A Redis outage is logged once per poller and queue when it starts, and once when Redis is back. */
class RedisOutageIT {

    @Test
    void theRetrySchedulerAndStallRecoveryWarnOncePerOutage() throws Exception {
        try (RedisServer redis = new RedisServer("--appendonly", "yes", "--appendfsync", "always").start();
                Downstream downstream = new Downstream(RedisServer.freePort());
                RedriveProcess service = new RedriveProcess("outage", Map.of(
                        "quarkus.redis.hosts", redis.url(),
                        "redrive.queues.work.handler", "http",
                        "redrive.queues.work.http.url", downstream.url("/work"),
                        // retry polls every 100 ms (the default), stall polls every 500 ms
                        "redrive.queues.work.visibility-timeout", "2s")).start()) {
            service.awaitReady(Duration.ofSeconds(60));
            redis.kill();
            // The reader retries once a second: three of its lines span 20 or more retry polls.
            Await.until("the outage to outlast 20 retry polls", Duration.ofSeconds(30),
                    () -> service.logLines("reading work failed") >= 3);
            redis.start();
            Await.until("both pollers to log that Redis is back", Duration.ofSeconds(30),
                    () -> service.logLines("looking for due retries of work works again") == 1
                            && service.logLines("stall recovery on work works again") == 1);
            assertEquals(1, service.logLines("looking for due retries of work failed"), service.output());
            assertEquals(1, service.logLines("stall recovery on work failed"), service.output());
        }
    }
}
