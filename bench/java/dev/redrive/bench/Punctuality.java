package dev.redrive.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vertx.redis.client.Response;

/**
 * Retry punctuality (issue 12): jobs whose first attempt fails with a Retry-After of 0.2-5 s
 * (handler {@code retry-once}, which records second attempt start minus (first attempt + wait));
 * the warm-up's lateness, recorded apart, is a fresh process's.
 */
final class Punctuality {

    /** XADDs ARGV[1] jobs numbered from ARGV[2], each failing once for 0.2-5 s (ARGV[4] + 0..ARGV[5] ms). */
    static final String RETRY_GEN = """
            local n, from, run, lo, span = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
            for i = from, from + n - 1 do
              redis.call('XADD', KEYS[1], '*', 'retry-after-ms', tostring(lo + (i * 7919) % (span + 1)), 'run', run,
                'payload', '{"job":' .. i .. '}')
            end
            return n""";

    private final Harness h;
    private final RedisProbe probe;

    Punctuality(Harness h) {
        this.h = h;
        this.probe = new RedisProbe(h);
    }

    void run(int jobs, int enqueueMs, int warm) throws Exception {
        h.fresh();
        // The queue's backoff is the 0.2 s floor; each job's Retry-After (0.2-5 s) sets its own wait.
        try (Service s = Service.start(h, "punctuality", "retry-once",
                Map.of("backoff", "200ms", "jitter", "0", "attempts", "3"))) {
            Figures.log("punctuality: warm-up, %,d jobs failing once for 0.2-1 s (recorded apart; as many as measured, like the failure path)", warm);
            Waits fresh = Waits.of(s);
            long[] w = retries(warm, 0, "warm-up", 200, 800, enqueueMs / 5);
            Map<String, Object> freshWaits = Waits.of(s).since(fresh, s, warm);
            Figures.log("punctuality: %,d jobs failing once for 0.2-5 s, enqueued over %d ms", jobs, enqueueMs);
            // The slow log it resets: calls that held Redis for 1 ms or more hold every retry due meanwhile.
            Window window = new Window(h, s, probe);
            long[] r = retries(jobs, w[0], "measured", 200, 4800, enqueueMs);
            double seconds = window.seconds();
            double redisCpuS = window.redisCpuSeconds();
            String metrics = s.metrics();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "retry punctuality: " + jobs + " jobs failing once, Retry-After 0.2-5 s");
            m.put("jobs", jobs);
            m.put("enqueued_over_ms", enqueueMs);
            m.put("retries_waiting_max", r[1]);
            String lateness = "redrive_bench_retry_lateness_seconds";
            for (String q : new String[] {"0.5", "0.99", "0.999"}) {
                Double v = labelled(metrics, lateness + "{", "quantile=\"" + q + "\"");
                m.put("lateness_p" + q.substring(2) + (q.equals("0.5") ? "0" : "") + "_ms", v == null ? null : Figures.round2(v * 1000));
            }
            Double max = labelled(metrics, lateness + "{", "quantile=\"1\"");
            m.put("lateness_max_ms", max == null ? null : Figures.round2(max * 1000));
            Double count = labelled(metrics, "redrive_bench_retry_lateness_recorded{", null);
            m.put("recorded", count == null ? 0 : count.longValue());
            Double early = labelled(metrics, "redrive_bench_retry_early{", null);
            m.put("early", early == null ? 0 : early.longValue());
            m.put("seconds", Figures.round3(seconds));
            m.put("redis_cpu_us_per_job", Figures.round2(redisCpuS * 1e6 / jobs));
            m.put("service_cpu_us_per_job", Figures.round2((s.cpuSeconds() - s.cpuMark) * 1e6 / jobs));
            m.put("service_jit_cpu_us_per_job", Figures.round2(window.jitSeconds() * 1e6 / jobs));
            m.put("service_rss_peak_mb", s.peakRssMb());
            m.put("redis_top_commands", h.topCommands("punctuality", 1, jobs));
            m.put("redis_calls_over_1ms", probe.slowCalls());
            m.put("load", Figures.load());
            h.emit(m);
            Figures.check(count != null && count.longValue() == jobs, "punctuality: %s of %d second attempts recorded",
                    count, jobs);
            fresh(metrics, warm, w[1], freshWaits);
        }
    }

    /**
     * Issue 27 item 4: the warm-up's lateness, recorded apart, is what a fresh process gives (a
     * rolling deploy): its jobs are enqueued as soon as the service reads, so their retries fall in
     * its first minute, with the JIT still compiling the path.
     */
    private void fresh(String metrics, int warm, long waiting, Map<String, Object> waits) {
        String lateness = "redrive_bench_retry_lateness_seconds";
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "retry punctuality, fresh process: the warm-up's " + warm + " jobs failing once, Retry-After 0.2-1 s, "
                + "enqueued as the service starts reading");
        m.put("jobs", warm);
        m.put("retries_waiting_max", waiting);
        for (String q : new String[] {"0.5", "0.99", "0.999"}) {
            Double v = labelled(metrics, lateness + "{", "quantile=\"" + q + "\"", "warm-up");
            m.put("lateness_p" + q.substring(2) + (q.equals("0.5") ? "0" : "") + "_ms", v == null ? null : Figures.round2(v * 1000));
        }
        Double max = labelled(metrics, lateness + "{", "quantile=\"1\"", "warm-up");
        m.put("lateness_max_ms", max == null ? null : Figures.round2(max * 1000));
        Double early = labelled(metrics, "redrive_bench_retry_early{", null, "warm-up");
        m.put("early", early == null ? 0 : early.longValue());
        m.put("target", "p99 <= 20 ms");
        m.putAll(waits);
        h.emit(m);
    }

    /**
     * XADDs n jobs (numbered from `from`) evenly over enqueueMs, then waits until every one is read and
     * acked after its second attempt; returns {jobs numbered so far, most retries seen waiting at once}.
     */
    private long[] retries(int n, long from, String run, int lo, int span, int enqueueMs) throws Exception {
        Map<String, Response> g0 = h.group();
        long target = read(g0) + n;
        int ticks = Math.max(1, enqueueMs / 10);
        long start = System.nanoTime();
        long maxWaiting = 0;
        for (int t = 0, sent = 0; t < ticks; t++) {
            int chunk = (int) ((long) n * (t + 1) / ticks) - sent;
            h.call("EVAL", RETRY_GEN, "1", Harness.STREAM, String.valueOf(chunk), String.valueOf(from + sent), run,
                    String.valueOf(lo), String.valueOf(span));
            sent += chunk;
            if (t % 10 == 0) {
                maxWaiting = Math.max(maxWaiting, probe.waitingForRetry());
            }
            long next = start + TimeUnit.MILLISECONDS.toNanos(10L * (t + 1));
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lo + span + 60_000L);
        while (System.nanoTime() < deadline) {
            Map<String, Response> g = h.group();
            if (read(g) >= target && g.get("pending").toLong() == 0) {
                return new long[] {from + n, maxWaiting};
            }
            maxWaiting = Math.max(maxWaiting, probe.waitingForRetry());
            Thread.sleep(50);
        }
        throw new IllegalStateException("retries of run " + run + " not all done 60 s after the last was due: "
                + h.group() + ", waiting " + probe.waitingForRetry());
    }

    /** The group's entries-read; nil (0 here) until its first read of a stream created empty. */
    static long read(Map<String, Response> group) {
        Response r = group.get("entries-read");
        return r == null ? 0 : r.toLong();
    }

    /** The value of the first Prometheus line of `metric` ("name{") that also holds `label` (or any). */
    private static Double labelled(String text, String metric, String label) {
        return labelled(text, metric, label, "measured");
    }

    private static Double labelled(String text, String metric, String label, String run) {
        for (String line : text.split("\n")) {
            if (line.startsWith(metric) && line.contains("run=\"" + run + "\"") && (label == null || line.contains(label))) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }
}
