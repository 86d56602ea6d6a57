package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.JobLedger;
import dev.redrive.testing.NetnsLink;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * A 30 s partition between redrive and its Redis (issue 24.6): Redis in a network namespace of its
 * own, redrive outside, the veth link between them taken down mid-flow while a producer adds jobs.
 * During the cut readiness goes DOWN within seconds and the API answers 503 within
 * {@code redrive.redis-timeout}, no request hangs; after it jobs flow again without a restart, and
 * {@link JobLedger} finds every acknowledged job done or parked, none twice.
 */
class PartitionIT {

    private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration CUT = Duration.ofSeconds(30);
    /** What README ("Durable writes and partitions") promises for the way back: jobs flow within this of the link's return. */
    private static final Duration BACK_WITHIN = Duration.ofSeconds(20);

    @Test
    void aPartitionIsSeenAtOnceAnsweredWith503AndSurvivedWithoutLoss() throws Exception {
        try (NetnsLink link = NetnsLink.open(); Downstream downstream = new Downstream(RedisServer.freePort())) {
            int port = RedisServer.freePort();
            Path dir = Files.createTempDirectory("redrive-partition-");
            link.start(List.of("redis-server", "--port", Integer.toString(port), "--bind", link.inside(), "--save", "",
                    "--appendonly", "no", "--protected-mode", "no", "--dir", dir.toString(), "--daemonize", "no"), dir.resolve("redis.log").toFile());
            Await.until("redis-server in the namespace", Duration.ofSeconds(20), () -> connects(link.inside(), port));
            JobLedger ledger = new JobLedger();
            // One in ten jobs is refused for good (parked at once), the rest succeed.
            downstream.respond(r -> {
                String entry = r.jobId().substring(r.jobId().indexOf('/') + 1);
                if (new String(r.body(), StandardCharsets.UTF_8).contains("\"park\":true")) {
                    ledger.attempted(entry);
                    return Downstream.Answer.status(422, "no");
                }
                ledger.succeeded(entry);
                return Downstream.Answer.ok();
            });
            Map<String, String> config = new HashMap<>(ApiUsers.config());
            config.putAll(Map.of("quarkus.redis.hosts", "redis://" + link.inside() + ":" + port,
                    "redrive.redis-timeout", REDIS_TIMEOUT.toMillis() + "ms",
                    "redrive.queues.work.handler", "http",
                    "redrive.queues.work.http.url", downstream.url("/work"),
                    "redrive.queues.work.visibility-timeout", "3s",
                    "redrive.gauge-interval", "500ms"));
            try (RedriveProcess service = new RedriveProcess("partition", config).start()) {
                service.awaitReady(Duration.ofSeconds(60));
                Producer producer = new Producer(link.inside(), port, ledger);
                Thread producing = new Thread(producer::run, "producer");
                producing.start();
                Await.until("jobs to flow", Duration.ofSeconds(20), () -> downstream.requests().size() >= 50);

                link.cut();
                long cutAt = System.nanoTime();
                Await.until("readiness DOWN during the partition", Duration.ofSeconds(10), () -> service.readiness() != 200);
                long downAfter = System.nanoTime() - cutAt;
                long asked = System.nanoTime();
                HttpResponse<String> listing = get(service, "/dlq");
                long answeredIn = System.nanoTime() - asked;
                assertEquals(503, listing.statusCode(), listing.body());
                assertTrue(listing.headers().firstValue("Retry-After").isPresent(), listing.headers().toString());
                assertTrue(answeredIn < REDIS_TIMEOUT.plusSeconds(2).toNanos(), "the API answered after " + answeredIn / 1_000_000 + " ms");
                Thread.sleep(Math.max(0, CUT.toMillis() - (System.nanoTime() - cutAt) / 1_000_000)); // the partition itself: wall time is the point

                link.restore();
                long restoredAt = System.nanoTime();
                long before = producer.acknowledged.get();
                Await.until("a job added after the partition", BACK_WITHIN, () -> producer.acknowledged.get() > before);
                String after = producer.last;
                Await.until("a job added after the partition to run, and readiness UP", BACK_WITHIN,
                        () -> downstream.requests().stream().anyMatch(r -> r.jobId().endsWith("/" + after))
                                && service.readiness() == 200);
                long backAfter = System.nanoTime() - restoredAt;
                Await.until("20 more jobs", BACK_WITHIN, () -> producer.acknowledged.get() > before + 20);
                producer.running.set(false);
                producing.join(10_000);

                try (RedisCli redis = new RedisCli(link.inside(), port, 5000)) {
                    // Reading parks again is harmless: the ledger keeps each dead letter and replay once.
                    Await.until("every acknowledged job done or parked", Duration.ofSeconds(30), () -> {
                        readDeadLetters(ledger, redis);
                        return ledger.check().clean();
                    });
                }
                JobLedger.Report report = ledger.check();
                System.out.printf("PartitionIT: readiness DOWN %d ms after the cut, API 503 in %d ms, jobs flowing %d ms "
                        + "after the link returned; %s%n", downAfter / 1_000_000, answeredIn / 1_000_000, backAfter / 1_000_000, report);
                report.assertClean();
                assertTrue(report.jobs() >= 70, report.toString()); // 50 before the cut, 20 after
            }
        }
    }

    /** Adds jobs as fast as a small service would (about 100/s), counting only those Redis acknowledged. */
    static final class Producer {
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong acknowledged = new AtomicLong();
        /** The entry id of the last job Redis acknowledged. */
        volatile String last;
        final String host;
        final int port;
        final JobLedger ledger;

        Producer(String host, int port, JobLedger ledger) {
            this.host = host;
            this.port = port;
            this.ledger = ledger;
        }

        void run() {
            long n = 0;
            RedisCli redis = null;
            while (running.get()) {
                try {
                    if (redis == null) {
                        redis = new RedisCli(host, port, 1000);
                    }
                    String job = "job-" + n;
                    String id = redis.xadd("work", "payload", "{\"job\":\"" + job + "\",\"park\":" + (n % 10 == 0) + "}");
                    ledger.produced(job, id);
                    last = id;
                    acknowledged.incrementAndGet();
                    n++;
                    Thread.sleep(10);
                } catch (Exception e) { // the partition: the add may or may not have landed, so it is not counted
                    close(redis);
                    redis = null;
                    n++;
                    sleepQuietly(200);
                }
            }
            close(redis);
        }
    }

    private static void readDeadLetters(JobLedger ledger, RedisCli redis) {
        try {
            ledger.readDeadLetters(args -> redis.checked(args), "{work}:dlq", "{work}:dlq:audit");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean connects(String host, int port) {
        try (RedisCli redis = new RedisCli(host, port, 1000)) {
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static HttpResponse<String> get(RedriveProcess service, String path) throws Exception {
        String auth = Base64.getEncoder().encodeToString(("viewer:" + ApiUsers.password("viewer")).getBytes(StandardCharsets.UTF_8));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.httpPort() + path))
                .header("Authorization", "Basic " + auth).timeout(REDIS_TIMEOUT.plusSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void close(RedisCli redis) {
        if (redis != null) {
            try {
                redis.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
