package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * Issue 10, item 6, as it was found: the packaged jar at -Xmx128m, one parked job with a 10 MB
 * payload, and 20 viewers at once. Every request gets an answer (200, or 503 with Retry-After),
 * nothing runs out of memory, and the heap goes back to where it was.
 */
class LargeValuesIT {

    static final int SIZE = 10 * 1024 * 1024;
    static final int READERS = 20;
    static final Duration ANSWER = Duration.ofSeconds(60);

    static byte[] payload() {
        byte[] b = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    @Test
    void twentyConcurrentReadsOfATenMegabyteJobAllGetAnAnswerAndLeaveTheHeapWhereItWas() throws Exception {
        try (RedisServer redis = new RedisServer().start();
                Downstream downstream = new Downstream(RedisServer.freePort());
                RedisCli cli = new RedisCli(redis.port())) {
            downstream.respond(r -> Answer.status(400, "rejected"));
            Map<String, String> c = new HashMap<>(ApiUsers.config());
            c.put("quarkus.redis.hosts", redis.url());
            c.put("redrive.queues.work.handler", "http");
            c.put("redrive.queues.work.http.url", downstream.url("/work"));
            try (RedriveProcess redrive = new RedriveProcess("large-values", c).maxHeap("128m").start()) {
                redrive.awaitReady(Duration.ofSeconds(60));
                cli.call("XADD", "work", "*", "payload", payload());
                Await.until("the job to be parked", Duration.ofSeconds(30), () -> cli.xlen("{work}:dlq") == 1);
                String id = RedisCli.text(((List<?>) ((List<?>) cli.call("XRANGE", "{work}:dlq", "-", "+")).get(0)).get(0));
                String entry = "http://127.0.0.1:" + redrive.httpPort() + "/dlq/"
                        + URLEncoder.encode("{work}:dlq", StandardCharsets.UTF_8) + "/entries/" + id;
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10)).build();
                assertEquals(200, get(http, entry).statusCode());
                long before = heapAfterGc(redrive);

                List<HttpResponse<String>> views = all(() -> get(http, entry));
                for (HttpResponse<String> view : views) {
                    answered(view);
                    if (view.statusCode() == 200) {
                        assertTrue(view.body().contains("\"truncated\":true") && view.body().contains("\"size\":" + SIZE),
                                "the payload is shown cut, with its size: " + view.body().substring(0, 300));
                        assertTrue(view.body().length() < 200_000, "a view carries 64 KiB of a value, not 10 MB");
                    }
                }
                assertTrue(views.stream().anyMatch(v -> v.statusCode() == 200), "some viewer got the entry");

                // Each reader takes its whole download, as 20 separate clients would.
                List<Integer> raws = all(() -> {
                    HttpResponse<InputStream> raw = http.send(request(entry + "/fields/payload"),
                            HttpResponse.BodyHandlers.ofInputStream());
                    try (InputStream body = raw.body()) {
                        if (raw.statusCode() == 200) {
                            assertWhole(body);
                        } else {
                            assertEquals(503, raw.statusCode());
                            assertTrue(raw.headers().firstValue("Retry-After").isPresent());
                        }
                    }
                    return raw.statusCode();
                });
                assertTrue(raws.contains(200), "some reader got the raw value whole: " + raws);

                assertEquals(200, get(http, entry).statusCode(), "a later read is answered");
                assertEquals(200, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + redrive.managementPort()
                        + "/q/health/ready")).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
                // Awaited, not read once: the Redis client keeps each connection's last reply in its
                // read buffer until that connection reads again (vertx-redis-client's ReadableBuffer;
                // up to twice a 1 MiB slice each), so right after the reads the heap can stand
                // 17-20 MB over its level (three runs in four on one box) and falls back within a
                // second or two as the connections are used. What a read keeps for good never does,
                // but the level before already holds the parked job's own read (13 MB over the idle
                // service on that box), so only a kept 16 MiB or more over it shows (a test leak of
                // 23 MB, two whole values, passed): this pins "not one value per reader", no finer.
                long[] after = {Long.MAX_VALUE};
                try {
                    Await.until("the heap after a GC back within 16 MiB of its level before the reads, " + before,
                            () -> (after[0] = heapAfterGc(redrive)) <= before + 16 * 1024 * 1024);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "; the last: " + after[0], e);
                }
                assertFalse(redrive.output().contains("OutOfMemoryError"), redrive.output());
            }
        }
    }

    static void answered(HttpResponse<String> r) {
        assertTrue(r.statusCode() == 200 || r.statusCode() == 503, r.statusCode() + " " + r.body());
        if (r.statusCode() == 503) {
            assertTrue(r.headers().firstValue("Retry-After").isPresent(), "503 says when to come back");
            assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
        }
    }

    static void assertWhole(InputStream body) throws IOException {
        byte[] buf = new byte[65536];
        long at = 0;
        int n;
        while ((n = body.read(buf)) > 0) {
            for (int i = 0; i < n; i++, at++) {
                if (buf[i] != (byte) ('a' + at % 26)) {
                    throw new AssertionError("byte " + at + " differs: "
                            + new String(buf, i, Math.min(80, n - i), StandardCharsets.ISO_8859_1));
                }
            }
        }
        assertEquals(SIZE, at, "the whole value");
    }

    static <T> List<T> all(Callable<T> read) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(READERS);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < READERS; i++) {
                futures.add(pool.submit(read));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                // A bound on the whole answer, body included: a hang fails the test rather than stalling it.
                results.add(f.get(ANSWER.toSeconds() * 2, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    static HttpRequest request(String url) {
        String auth = Base64.getEncoder().encodeToString(("viewer:" + ApiUsers.password("viewer"))
                .getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder(URI.create(url)).timeout(ANSWER).header("Authorization", "Basic " + auth).build();
    }

    static HttpResponse<String> get(HttpClient http, String url) throws IOException, InterruptedException {
        return http.send(request(url), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The heap in use right after a full GC, the least of three rounds: what the service allocates
     * between the GC and the reading (the scrape itself, its timers) is several MB on its own: with
     * a single round, one full run in six read 18 MB over the level before the reads, and the test
     * alone passed twice right after. A value kept by mistake (10 MB each) stays in all three.
     */
    static long heapAfterGc(RedriveProcess redrive) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        long least = Long.MAX_VALUE;
        try {
            for (int round = 0; round < 3; round++) {
                Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(redrive.pid()), "GC.run")
                        .redirectErrorStream(true).start();
                String out = new String(gc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(0, gc.waitFor(), out);
                least = Math.min(least, (long) Metrics.sum(redrive.managementPort(), "jvm_memory_used_bytes", "area=\"heap\""));
            }
        } catch (IOException e) {
            throw new AssertionError("could not run jcmd GC.run on the service", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while collecting the service's heap", e);
        }
        return least;
    }
}
