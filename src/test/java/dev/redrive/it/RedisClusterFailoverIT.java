package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.JobLedger;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;
import dev.redrive.testing.TestConfig;

/**
 * A Redis Cluster failover under load (issue 24.4): three primaries with a replica each, two
 * queues whose streams live on different primaries, a steady producer (a job counts once its
 * primary acknowledged it and {@code WAIT 1} confirmed a replica has it) with a share of jobs
 * parked and a share that fails once. The primary of one queue is SIGKILLed mid-flow; once its
 * replica is promoted, redrive must read that queue again by itself: before the fix its blocking
 * reader kept trying the dead node's address and jobs added after the promotion stayed unread.
 * At the end {@link JobLedger} finds every counted job of both queues done or parked, none lost,
 * none parked twice, and readiness is UP again.
 */
class RedisClusterFailoverIT {

    /** Cluster nodes mark a silent peer failed after this; its replica is promoted soon after. */
    private static final int NODE_TIMEOUT_MS = 2000;
    /** A safety bound, not the promise: README ("Redis Cluster") gives the measured 4-6 s from the kill. */
    private static final Duration BACK_WITHIN = Duration.ofSeconds(30);
    /** Reads one queue keeps in flight at most (worker/Slots.MAX_READS): each may fail once a second. */
    private static final int READS_IN_FLIGHT = 8;

    @Test
    void aKilledPrimarysQueueIsReadOnItsPromotedReplicaWithNothingLost() throws Exception {
        try (RedisCluster cluster = RedisCluster.start(3, 1, "--cluster-node-timeout", Integer.toString(NODE_TIMEOUT_MS));
                Downstream downstream = new Downstream(RedisServer.freePort())) {
            // Two queues on different primaries: the victim's primary dies, the other carries on.
            Map<String, Integer> owners = new LinkedHashMap<>();
            for (String q : List.of("orders", "emails", "images", "sms")) {
                int owner = cluster.ownerOf(q);
                if (!owners.containsValue(owner)) {
                    owners.put(q, owner);
                }
            }
            List<String> queues = List.copyOf(owners.keySet()).subList(0, 2);
            String victim = queues.get(0);
            RedisServer killed = cluster.node(owners.get(victim));

            Map<String, JobLedger> ledgers = new HashMap<>();
            queues.forEach(q -> ledgers.put(q, new JobLedger()));
            Map<String, Integer> runs = new ConcurrentHashMap<>();
            // Jobs marked park are refused for good (parked at once); flaky ones fail their first run.
            downstream.respond(r -> {
                JobLedger ledger = ledgers.get(r.path().substring(1));
                String entry = r.jobId().substring(r.jobId().indexOf('/') + 1);
                String body = new String(r.body(), StandardCharsets.UTF_8);
                int run = runs.merge(r.jobId(), 1, Integer::sum);
                if (body.contains("\"park\":true")) {
                    ledger.attempted(entry);
                    return Downstream.Answer.status(422, "no");
                }
                if (body.contains("\"flaky\":true") && run == 1) {
                    ledger.attempted(entry);
                    return Downstream.Answer.status(500, "once");
                }
                ledger.succeeded(entry);
                return Downstream.Answer.ok();
            });

            // The victim's primary comes first: a reader that only knew the first address would never read again.
            List<String> hosts = new ArrayList<>(List.of(killed.url()));
            cluster.nodes().stream().filter(n -> n != killed).forEach(n -> hosts.add(n.url()));
            TestConfig config = TestConfig.withApiUsers().set("quarkus.redis.client-type", "cluster")
                    .set("quarkus.redis.hosts", String.join(",", hosts))
                    .set("redrive.redis-timeout", "2s").set("redrive.gauge-interval", "500ms");
            for (String q : queues) {
                // The shipped block (2 s), not a test queue's short one: the reader waits on the node that dies.
                config.queue(q).handler("http").set("http.url", downstream.url("/" + q)).attempts(3).backoff("20ms")
                        .retryPoll("20ms").set("visibility-timeout", "3s").set("block", "2s");
            }
            try (RedriveProcess redrive = new RedriveProcess("cluster-failover", config.build()).start()) {
                redrive.awaitReady(Duration.ofSeconds(60));
                FailoverProducer producer = new FailoverProducer(cluster, queues, ledgers, victim);
                Thread producing = new Thread(producer::run, "producer");
                producing.start();
                try {
                    Await.until("jobs to flow on both queues", Duration.ofSeconds(30), () -> queues.stream().allMatch(
                            q -> downstream.requests().stream().filter(r -> r.path().equals("/" + q)).count() >= 30));

                    // Between jobs the victim's queue waits in its blocking reader, on the victim's primary:
                    // kill it while it does, so the reader holds the address that dies.
                    try (RedisCli onVictim = new RedisCli(killed.port())) {
                        Await.until(victim + "'s reader blocked on its primary", Duration.ofSeconds(30),
                                () -> blockedReads(onVictim) > 0);
                    }
                    killed.kill();
                    producer.alone.set(true);
                    long killedAt = System.nanoTime();
                    // Until the promotion the pool refuses every command (Vert.x's cluster client connects to all
                    // primaries): readiness DOWN, the API a 503 with Retry-After, never a hang or a 500.
                    Await.until("readiness DOWN while the slot has no primary", Duration.ofSeconds(10),
                            () -> redrive.readiness() != 200);
                    long downAfter = System.nanoTime() - killedAt;
                    HttpResponse<String> listing = listDeadLetters(redrive);
                    assertTrue(listing.statusCode() == 503 && listing.headers().firstValue("Retry-After").isPresent()
                            || listing.statusCode() == 200, listing.statusCode() + " " + listing.body());
                    int promoted = Await.value("the replica to be promoted", Duration.ofSeconds(30), () -> {
                        int owner = cluster.ownerOf(victim);
                        return owner > 0 ? owner : null;
                    });
                    long promotedAfter = System.nanoTime() - killedAt;
                    assertNotEquals(killed.port(), promoted);

                    Map<String, Long> before = new HashMap<>();
                    queues.forEach(q -> before.put(q, producer.added(q)));
                    String after = producer.next(victim, before.get(victim));
                    Await.until("a job added to " + victim + " after the promotion to run", BACK_WITHIN,
                            () -> ran(downstream, victim, after));
                    long flowingAfter = System.nanoTime() - killedAt;
                    Await.until("readiness UP again", BACK_WITHIN, () -> redrive.readiness() == 200);
                    long readyAfter = System.nanoTime() - killedAt;

                    // A quiet queue waits in its blocking reader, the part that kept the dead node's address:
                    // the victim's queue drains, waits there (a blocked XREADGROUP on the promoted replica, or
                    // readiness naming it when its reader can't read), and then gets one job more.
                    producer.paused.add(victim);
                    try (RedisCli onPromoted = new RedisCli(promoted)) {
                        Await.until(victim + " to drain and wait for new entries", BACK_WITHIN,
                                () -> onPromoted.pending(victim, "redrive") == 0 && (blockedReads(onPromoted) > 0
                                        || redrive.readinessBody().contains("new entries not read")));
                    }
                    long quiet = producer.added(victim);
                    producer.paused.remove(victim);
                    String afterQuiet = producer.next(victim, quiet);
                    Await.until("a job added to " + victim + " while it waited for new entries to run", BACK_WITHIN,
                            () -> ran(downstream, victim, afterQuiet));
                    Await.until("readiness UP after the quiet spell", BACK_WITHIN, () -> redrive.readiness() == 200);
                    // The run's length follows the promotion's timing: wait for the traffic the
                    // check below asks of each queue rather than hope a fast failover left enough.
                    Await.until("20 more jobs on each queue, at least 50 in all", Duration.ofSeconds(30),
                            () -> queues.stream().allMatch(q -> producer.added(q) > before.get(q) + 20
                                    && producer.added(q) >= 50));
                    producer.running.set(false);
                    producing.join(10_000);

                    for (String q : queues) {
                        try (RedisCli redis = new RedisCli(cluster.ownerOf(q))) {
                            // Reading parks again is harmless: the ledger keeps each dead letter and replay once.
                            Await.until(q + ": every counted job done or parked", Duration.ofSeconds(30), () -> {
                                try {
                                    ledgers.get(q).readDeadLetters(args -> redis.checked((Object[]) args),
                                            "{" + q + "}:dlq", "{" + q + "}:dlq:audit");
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                                return ledgers.get(q).check().clean();
                            });
                        }
                    }
                    System.out.printf("RedisClusterFailoverIT: cluster-node-timeout %d ms; readiness DOWN %d ms after the kill"
                            + " (GET /dlq then: %d), replica promoted %d ms after it, %s read again %d ms after it,"
                            + " readiness UP %d ms after it%n", NODE_TIMEOUT_MS, downAfter / 1_000_000, listing.statusCode(),
                            promotedAfter / 1_000_000, victim, flowingAfter / 1_000_000, readyAfter / 1_000_000);
                    // dead-letter.lua ran on the promoted replica, whose script cache was empty:
                    // EVALSHA answered NOSCRIPT and the body went once by EVAL (LuaScripts).
                    try (RedisCli onPromoted = new RedisCli(promoted)) {
                        String stats = RedisCli.text(onPromoted.call("INFO", "commandstats"));
                        assertTrue(stats.contains("cmdstat_eval:") && stats.contains("cmdstat_evalsha:"), stats);
                    }
                    // While the slot has no primary the pool refuses at once; each of a queue's reads in
                    // flight waits a second before the next (before: about 2,500 failed reads a second,
                    // each a WARN line).
                    for (String q : queues) {
                        long warned = redrive.logLines("reading " + q + " failed");
                        assertTrue(warned <= READS_IN_FLIGHT * (flowingAfter / 1_000_000_000L + 2), q + ": " + warned + " read failures logged");
                    }
                    for (String q : queues) {
                        JobLedger.Report report = ledgers.get(q).check();
                        System.out.printf("RedisClusterFailoverIT %s (%s): %s", q, q.equals(victim) ? "failed over" : "untouched", report);
                        report.assertClean();
                        assertTrue(report.jobs() >= 50, q + ": " + report);
                    }
                } finally {
                    producer.running.set(false);
                }
            }
        }
    }

    private static boolean ran(Downstream downstream, String queue, String entryId) {
        return downstream.requests().stream().anyMatch(r -> r.jobId().equals(queue + "/" + entryId));
    }

    /** Connections of this node blocked in XREADGROUP: redrive's blocking readers waiting there. */
    private static long blockedReads(RedisCli redis) {
        return RedisCli.text(redis.call("CLIENT", "LIST")).lines()
                .filter(c -> c.contains(" flags=b ") && c.contains(" cmd=xreadgroup")).count();
    }

    private static HttpResponse<String> listDeadLetters(RedriveProcess service) throws Exception {
        String auth = Base64.getEncoder().encodeToString(("viewer:" + ApiUsers.password("viewer")).getBytes(StandardCharsets.UTF_8));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.httpPort() + "/dlq"))
                .header("Authorization", "Basic " + auth).timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
