package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * Many more queues than pool connections: quiet queues wait for work together in one blocking
 * read on a connection of its own, so every queue drains, and the process holds the pool plus a
 * couple of connections, not one per queue. (Before, each queue's blocking read held a pool
 * connection: past the pool size, acks and claims queued behind them and queues starved.)
 */
class ManyQueuesIT {

    static final int QUEUES = 150;
    static final int POOL = 8;
    static final int JOBS = 20;

    @Test
    void moreQueuesThanPoolConnectionsDrainEveryQueue() throws Exception {
        try (RedisServer redis = new RedisServer().start()) {
            Map<String, String> config = new HashMap<>();
            config.put("quarkus.redis.hosts", redis.url());
            config.put("quarkus.redis.max-pool-size", Integer.toString(POOL));
            config.put("redrive.consumer-name", "many");
            for (int i = 0; i < QUEUES; i++) {
                config.put("redrive.queues.q" + i + ".handler", "noop");
                config.put("redrive.queues.q" + i + ".concurrency", "4");
            }
            try (RedriveProcess service = new RedriveProcess("many", config).start();
                    RedisCli cli = new RedisCli(redis.port())) {
                service.awaitReady(Duration.ofSeconds(60));
                Await.until("every queue's group", Duration.ofSeconds(30),
                        () -> !(cli.call("XINFO", "GROUPS", "q" + (QUEUES - 1)) instanceof RuntimeException));
                // One queue at a time, each quiet before its burst: the first, one in the middle, the last.
                for (int q : List.of(0, QUEUES / 2, QUEUES - 1, 1, QUEUES - 2)) {
                    String stream = "q" + q;
                    List<String> ids = new ArrayList<>();
                    for (int j = 0; j < JOBS; j++) {
                        ids.add(cli.xadd(stream, "n", Integer.toString(j)));
                    }
                    Await.until(JOBS + " jobs of " + stream + " read and acked", Duration.ofSeconds(30),
                            () -> cli.pending(stream, "redrive") == 0
                                    && ids.get(JOBS - 1).equals(lastDelivered(cli, stream)));
                    assertEquals(0, cli.xlen("{" + stream + "}:dlq"));
                }
                double done = Metrics.sum(service.managementPort(), "redrive_jobs_completed_total", "");
                assertEquals(5 * JOBS, done, 0.0, "every job completed once");
                long connections = clients(cli) - 1;
                // The pool, the shared blocking reader and the connection that wakes it.
                assertTrue(connections <= POOL + 2, "the service holds " + connections + " connections for "
                        + QUEUES + " queues (pool " + POOL + ")");
            }
        }
    }

    private static String lastDelivered(RedisCli cli, String stream) {
        List<?> groups = (List<?>) cli.call("XINFO", "GROUPS", stream);
        List<?> group = (List<?>) groups.get(0);
        for (int i = 0; i + 1 < group.size(); i += 2) {
            if ("last-delivered-id".equals(RedisCli.text(group.get(i)))) {
                return RedisCli.text(group.get(i + 1));
            }
        }
        return null;
    }

    private static long clients(RedisCli cli) {
        String list = new String((byte[]) cli.call("CLIENT", "LIST"), StandardCharsets.UTF_8);
        return list.lines().filter(l -> !l.isBlank()).count();
    }
}
