package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * No span is lost without a word (issue 27): the packaged service exports to a real OTLP/HTTP
 * receiver that first refuses every export, then answers slowly behind a small export queue.
 * Every span the service ends is counted as exported (exactly what the receiver accepted) or as
 * dropped with its reason, and the drops are told in the log: every one, by how many, at most one
 * line of each reason per redrive.tracing.drop-warning-interval (set to {@link #WARN_EVERY} here, not
 * its minute). Two exports are on the wire at once, never three (CountedSpans.EXPORTS_IN_FLIGHT): the
 * receiver has threads for four.
 */
class SpanExportIT {

    private static final String SPAN_NAME = "process orders";
    private static final String SCRIPT = "for i = 1, tonumber(ARGV[1]) do redis.call('XADD', KEYS[1], '*', 'kind', 'ok') end";
    private static final Duration WARN_EVERY = Duration.ofSeconds(2);
    private static final String QUEUE_WAS_FULL = "the export queue was full";
    private static final String COLLECTOR_REFUSED = "the OTLP collector refused or did not answer";
    /** A drop line: its time (the console format's HH:mm:ss.SSS), how many spans it tells, and why. */
    private static final Pattern DROP_LINE = Pattern.compile("^(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{3}) WARN .*\\[SpanLedger\\].* "
            + "dropped (\\d+) spans since the last warning: (" + QUEUE_WAS_FULL + "|" + COLLECTOR_REFUSED + ")");

    private enum Mode { REFUSE, SLOW }

    private volatile Mode mode = Mode.REFUSE;
    private final AtomicLong accepted = new AtomicLong();
    private final CountDownLatch slowRequests = new CountDownLatch(1);
    private final AtomicInteger answering = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    @Test
    void everyEndedSpanIsExportedOrCountedAsDroppedWithItsReasonAndLogged() throws Exception {
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        receiver.setExecutor(Executors.newFixedThreadPool(4));
        receiver.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (mode == Mode.REFUSE) {
                exchange.sendResponseHeaders(400, -1); // not retryable: the batch is lost
            } else {
                slowRequests.countDown();
                mostAtOnce.accumulateAndGet(answering.incrementAndGet(), Math::max);
                sleep(Duration.ofMillis(700));
                answering.decrementAndGet();
                accepted.addAndGet(OtlpBodies.count(body, SPAN_NAME.getBytes(StandardCharsets.UTF_8)));
                exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
            }
            exchange.close();
        });
        receiver.start();
        try (RedisServer redis = new RedisServer().start();
                RedriveProcess p = new RedriveProcess("span-export", Map.of()).env(Map.of(
                        "REDIS_URL", redis.url(),
                        "REDRIVE_QUEUES_ORDERS_HANDLER", "demo",
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + receiver.getAddress().getPort(),
                        "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                        "QUARKUS_OTEL_BSP_MAX_QUEUE_SIZE", "40",
                        "QUARKUS_OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "10",
                        "QUARKUS_OTEL_BSP_SCHEDULE_DELAY", "20ms",
                        "REDRIVE_TRACING_DROP_WARNING_INTERVAL", WARN_EVERY.toSeconds() + "s")).start();
                RedisCli cli = new RedisCli(redis.port())) {
            p.awaitReady(Duration.ofSeconds(60));
            int port = p.managementPort();
            // Quarkus' own processor (left idle) and the counted one; not a third that batches every
            // span for the SDK's no-op exporter (ExportNowhere).
            assertEquals(2, batchWorkers(p.pid()), "BatchSpanProcessor worker threads");
            assertFalse(p.output().contains("maxExportBatchSize should not exceed"), "the third processor's start-up line");
            assertFalse(p.output().contains("span export requests are built as Quarkus builds them"),
                    "requests built by the SDK's low-allocation marshaler, reused (trace/ReusedRequests)");

            cli.call("EVAL", SCRIPT, "1", "orders", "30");
            Await.until("30 spans refused by the receiver, counted as failed exports", Duration.ofSeconds(30),
                    () -> dropped(port, "export_failed") == 30);
            assertEquals(30, ended(port));
            assertEquals(0, exported(port));
            Await.until("a WARN line telling the refused exports", Duration.ofSeconds(10),
                    () -> p.logLines("WARN") > 0 && p.output().contains(COLLECTOR_REFUSED));

            mode = Mode.SLOW;
            cli.call("EVAL", SCRIPT, "1", "orders", "500");
            Await.until("all 530 jobs done and every span accounted for", Duration.ofSeconds(60),
                    () -> ended(port) == 530 && exported(port) + dropped(port, "") == 530);
            assertTrue(slowRequests.await(0, TimeUnit.SECONDS));
            assertEquals(2, mostAtOnce.get(), "exports on the wire at once, behind a receiver with room for four");
            assertTrue(dropped(port, "queue_full") > 0, "a queue of 40 behind a slow receiver drops spans");
            assertEquals(30, dropped(port, "export_failed"));
            assertEquals(accepted.get(), exported(port), "exported: exactly the spans the receiver accepted");
            assertEquals(530 - 30 - accepted.get(), dropped(port, "queue_full"));
            // The drops after a line wait for its interval to be over, then are told though no more come.
            long queueFull = dropped(port, "queue_full");
            Await.until("WARN lines telling every dropped span: " + queueFull + " for the full queue, 30 refused",
                    Duration.ofSeconds(30), () -> told(p, QUEUE_WAS_FULL) == queueFull && told(p, COLLECTOR_REFUSED) == 30);
            assertRateLimited(p, QUEUE_WAS_FULL);
            assertRateLimited(p, COLLECTOR_REFUSED);
        } finally {
            receiver.stop(0);
        }
    }

    /** Spans the WARN lines so far tell dropped for {@code why}. */
    private static long told(RedriveProcess p, String why) {
        return dropLines(p, why).stream().mapToLong(line -> Long.parseLong(line.group(5))).sum();
    }

    /**
     * No two lines of one reason less than the interval apart: a drop inside it waited for the next
     * line. Less 100 ms: a line's time is read when it is written, a moment after the ledger's own.
     */
    private static void assertRateLimited(RedriveProcess p, String why) {
        List<Matcher> lines = dropLines(p, why);
        for (int i = 1; i < lines.size(); i++) {
            long apart = Math.floorMod(millisOfDay(lines.get(i)) - millisOfDay(lines.get(i - 1)), 86_400_000L);
            assertTrue(apart >= WARN_EVERY.toMillis() - 100, "lines " + (i - 1) + " and " + i + " telling '" + why
                    + "' " + apart + " ms apart:\n" + lines.get(i - 1).group() + "\n" + lines.get(i).group());
        }
    }

    private static List<Matcher> dropLines(RedriveProcess p, String why) {
        return p.output().lines().map(DROP_LINE::matcher).filter(m -> m.find() && m.group(6).equals(why)).toList();
    }

    private static long millisOfDay(Matcher line) {
        return ((Long.parseLong(line.group(1)) * 60 + Long.parseLong(line.group(2))) * 60 + Long.parseLong(line.group(3)))
                * 1000 + Long.parseLong(line.group(4));
    }

    /** Threads of the process named as the SDK names a batch span processor's worker (cut to 15 characters). */
    private static long batchWorkers(long pid) throws IOException {
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).startsWith("BatchSpanProces");
                } catch (IOException gone) {
                    return false;
                }
            }).count();
        }
    }

    private static long ended(int port) {
        return (long) Metrics.sum(port, "redrive_trace_spans_ended_total", "");
    }

    private static long exported(int port) {
        return (long) Metrics.sum(port, "redrive_trace_spans_exported_total", "");
    }

    private static long dropped(int port, String reason) {
        return (long) Metrics.sum(port, "redrive_trace_spans_dropped_total", reason.isEmpty() ? "" : "reason=\"" + reason + "\"");
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis()); // the receiver is slow on purpose: what the test is about
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
