package dev.redrive.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.redrive.testing.RawRedis;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/** 4. Latency: an independent producer offers {@code rate} jobs/s; the handler records XADD to its start. */
final class Latency {

    private final Harness h;

    Latency(Harness h) {
        this.h = h;
    }

    void run(int rate, int seconds) throws Exception {
        h.fresh();
        try (Service s = Service.start(h, "latency", "latency", Map.of("backoff", "10m", "attempts", "3"));
                RawRedis producer = RawRedis.connect(h.redisPort)) {
            Figures.log("latency: warm-up, %d jobs/s for 5 s (not recorded)", rate);
            produce(producer, rate, 5, false);
            waitIdle(Duration.ofSeconds(30));
            Figures.log("latency: %d jobs/s for %d s", rate, seconds);
            Waits waits = Waits.of(s);
            s.mark();
            double cpu0 = h.redisCpu();
            long t0 = System.nanoTime();
            long sent = produce(producer, rate, seconds, true);
            waitIdle(Duration.ofSeconds(60));
            Map<String, Object> where = Waits.of(s).since(waits, s, sent);
            long t1 = System.nanoTime();
            double cpu1 = h.redisCpu();
            String metrics = s.metrics();
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("offered_per_s", Math.round(sent / (double) seconds));
            for (String q : new String[] {"0.5", "0.99", "0.999"}) {
                Double v = Figures.metric(metrics, "redrive_bench_start_delay_seconds{quantile=\"" + q + "\"");
                extra.put("p" + q.substring(2) + (q.equals("0.5") ? "0" : "") + "_ms", v == null ? null : Figures.round2(v * 1000));
            }
            Double max = Figures.metric(metrics, "redrive_bench_start_delay_seconds_max");
            extra.put("max_ms", max == null ? null : Figures.round2(max * 1000));
            extra.put("recorded", Figures.metric(metrics, "redrive_bench_start_delay_seconds_count"));
            extra.putAll(where);
            new Gate(h).report(s, "latency at " + rate + " jobs/s for " + seconds + " s (XADD to handler start)", (int) sent,
                    new long[] {t0, t1}, cpu1 - cpu0, extra);
        }
    }

    /**
     * XADDs at a steady `rate`, a few each millisecond, each stamped with its send time in epoch µs;
     * the warm-up's (not {@code measured}) marked so the handler records them apart, by the same code.
     */
    private static long produce(RawRedis producer, int rate, int seconds, boolean measured) throws Exception {
        AtomicLong sent = new AtomicLong();
        long total = (long) rate * seconds;
        CompletableFuture<Void> done = new CompletableFuture<>();
        long start = System.nanoTime();
        long timer = producer.vertx().setPeriodic(1, t -> {
            long due = Math.min(total, (System.nanoTime() - start) * rate / 1_000_000_000L);
            while (sent.get() < due) {
                Instant now = Instant.now();
                long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
                Request xadd = Request.cmd(Command.XADD).arg(Harness.STREAM).arg("*").arg("sent-at-us")
                        .arg(Long.toString(micros)).arg("payload").arg("{\"job\":" + sent.get() + "}");
                producer.send(measured ? xadd : xadd.arg("warm-up").arg("1"));
                sent.incrementAndGet();
            }
            if (sent.get() >= total) {
                done.complete(null);
            }
        });
        done.get(seconds + 60L, TimeUnit.SECONDS);
        producer.vertx().cancelTimer(timer);
        return sent.get();
    }

    private void waitIdle(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Response> g = h.group();
            if (g.get("pending").toLong() == 0 && g.get("lag") != null && g.get("lag").toLong() == 0) {
                return;
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("not idle: " + h.group());
    }
}
