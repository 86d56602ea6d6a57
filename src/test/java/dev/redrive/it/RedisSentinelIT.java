package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * redrive behind Sentinel: a primary, one replica and three sentinels (the same redis-server in
 * --sentinel mode). The pool and the blocking reader both find the primary through the sentinels;
 * a steady producer with a failing share runs while the primary is SIGKILLed, and after the
 * replica's promotion redrive carries on by itself. Exact accounting: every job the producer
 * counted (acknowledged by Redis and, before the kill, confirmed by the replica with WAIT 1) is in
 * the stream, none is pending or unread, each poison job is parked exactly once, no ok job is.
 */
class RedisSentinelIT {

    @Test
    void redriveFollowsAFailoverWithNothingLost() throws Exception {
        List<Process> sentinels = new ArrayList<>();
        try (RedisServer primary = new RedisServer().start();
                RedisServer replica = new RedisServer("--replicaof", "127.0.0.1", "0").start()) {
            try (RedisCli r = new RedisCli(replica.port())) {
                r.call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()));
            }
            List<String> hosts = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int port = RedisServer.freePort();
                Path conf = Files.createTempFile("redrive-sentinel-", ".conf");
                Files.writeString(conf, "port " + port + "\nbind 127.0.0.1\nsentinel monitor main 127.0.0.1 "
                        + primary.port() + " 2\nsentinel down-after-milliseconds main 1000\n"
                        + "sentinel failover-timeout main 5000\n");
                sentinels.add(new ProcessBuilder("redis-server", conf.toString(), "--sentinel").redirectErrorStream(true)
                        .redirectOutput(new File(conf + ".log")).start());
                hosts.add("redis://127.0.0.1:" + port);
            }
            int sentinel = Integer.parseInt(hosts.get(0).substring(hosts.get(0).lastIndexOf(':') + 1));
            Await.until("the sentinels to see the replica", Duration.ofSeconds(20), () -> {
                try (RedisCli s = new RedisCli(sentinel)) {
                    return RedisCli.text(s.call("INFO", "sentinel")).contains("slaves=1,sentinels=3");
                } catch (Exception e) {
                    return false;
                }
            });

            Map<String, String> config = new HashMap<>();
            config.put("quarkus.redis.client-type", "sentinel");
            config.put("quarkus.redis.hosts", String.join(",", hosts));
            config.put("quarkus.redis.master-name", "main");
            config.put("redrive.queues.orders.handler", "demo");
            config.put("redrive.queues.orders.attempts", "2");
            config.put("redrive.queues.orders.backoff", "20ms");
            config.put("redrive.queues.orders.retry-poll", "20ms");
            config.put("redrive.queues.orders.visibility-timeout", "2s");
            try (RedriveProcess redrive = new RedriveProcess("sentinel", config).start()) {
                redrive.awaitReady(Duration.ofSeconds(60));
                Set<String> ok = new HashSet<>();
                Set<String> poison = new HashSet<>();
                try (RedisCli p = new RedisCli(primary.port())) {
                    for (int i = 0; i < 60; i++) {
                        String kind = i % 5 == 0 ? "poison" : "ok";
                        String id = p.xadd("orders", "kind", kind);
                        assertEquals(1L, p.call("WAIT", "1", "2000"), "the replica has " + id);
                        (kind.equals("ok") ? ok : poison).add(id);
                        Thread.sleep(10);
                    }
                }
                primary.kill();
                long killed = System.nanoTime();
                Await.until("a sentinel to promote the replica", Duration.ofSeconds(30), () -> {
                    try (RedisCli s = new RedisCli(sentinel)) {
                        List<?> at = (List<?>) s.call("SENTINEL", "get-master-addr-by-name", "main");
                        return RedisCli.text(at.get(1)).equals(Integer.toString(replica.port()));
                    } catch (Exception e) {
                        return false;
                    }
                });
                try (RedisCli n = new RedisCli(replica.port())) {
                    for (int i = 0; i < 40; i++) {
                        String kind = i % 5 == 0 ? "poison" : "ok";
                        (kind.equals("ok") ? ok : poison).add(n.xadd("orders", "kind", kind));
                    }
                    Await.until("every job done or parked on the new primary", Duration.ofSeconds(60),
                            () -> n.pending("orders", "redrive") == 0 && allRead(n) && n.xlen("{orders}:dlq") >= poison.size());
                    long seconds = (System.nanoTime() - killed) / 1_000_000_000L;
                    Map<String, Integer> parked = parkedOrigins(n);
                    for (String id : poison) {
                        assertEquals(1, parked.getOrDefault(id, 0), "poison job " + id + " parked exactly once");
                    }
                    for (String id : ok) {
                        assertTrue(!parked.containsKey(id), "ok job " + id + " is not parked");
                    }
                    assertEquals(poison.size(), parked.size(), "nothing else parked: " + parked);
                    Set<String> inStream = new HashSet<>();
                    for (Object e : (List<?>) n.call("XRANGE", "orders", "-", "+")) {
                        inStream.add(RedisCli.text(((List<?>) e).get(0)));
                    }
                    assertTrue(inStream.containsAll(ok) && inStream.containsAll(poison), "no counted job lost");
                    System.out.println("RedisSentinelIT: " + (ok.size() + poison.size()) + " jobs accounted for, "
                            + seconds + " s from the kill to the last job done");
                }
                redrive.awaitReady(Duration.ofSeconds(30));
                // Redis' own lag stays wrong on the promoted replica (59 here): the gauge must say 0
                // once every entry was read, or the lag alert and an autoscaler act on nothing.
                Await.until("redrive_lag of orders 0 on the new primary", Duration.ofSeconds(30),
                        () -> Metrics.sum(redrive.managementPort(), "redrive_lag", "queue=\"orders\"") == 0
                                && Metrics.sum(redrive.managementPort(), "redrive_group_consumers", "queue=\"orders\"") > 0);
            }
        } finally {
            sentinels.forEach(Process::destroyForcibly);
        }
    }

    /**
     * Whether the group was handed every entry: its last-delivered-id is the stream's last id.
     * Not the group's {@code lag}: Redis 7.0 computes it from {@code entries-read}, which a promoted
     * replica can hold wrong (seen here: 41 read of 100, lag 59, with every entry delivered and acked).
     */
    private static boolean allRead(RedisCli cli) {
        String last = field((List<?>) cli.call("XINFO", "STREAM", "orders"), "last-generated-id");
        for (Object g : (List<?>) cli.call("XINFO", "GROUPS", "orders")) {
            if ("redrive".equals(field((List<?>) g, "name"))) {
                return last != null && last.equals(field((List<?>) g, "last-delivered-id"));
            }
        }
        return false;
    }

    private static String field(List<?> fields, String name) {
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            if (name.equals(RedisCli.text(fields.get(i)))) {
                return RedisCli.text(fields.get(i + 1));
            }
        }
        return null;
    }

    /** How often each origin id is parked in {orders}:dlq. */
    private static Map<String, Integer> parkedOrigins(RedisCli cli) {
        Map<String, Integer> parked = new HashMap<>();
        for (Object e : (List<?>) cli.call("XRANGE", "{orders}:dlq", "-", "+")) {
            List<?> fields = (List<?>) ((List<?>) e).get(1);
            for (int i = 0; i < fields.size(); i += 2) {
                if ("origin-id".equals(RedisCli.text(fields.get(i)))) {
                    parked.merge(RedisCli.text(fields.get(i + 1)), 1, Integer::sum);
                }
            }
        }
        return parked;
    }
}
