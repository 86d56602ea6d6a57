package dev.redrive.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import io.vertx.redis.client.Response;

/**
 * The gate every timed drain goes through: a backlog is built under a staging key with its
 * consumer group, then RENAMEd over the queue's stream and woken with one XADD. The service reads
 * it as it would read any backlog, and the timed window runs from the first read (the group's
 * entries-read moves) to the last ack (entries-read complete, nothing pending), polled every 2 ms
 * with XINFO GROUPS.
 */
final class Gate {

    private final Harness h;

    Gate(Harness h) {
        this.h = h;
    }

    /** n - 1 entries under the staging key with the group (the XADD that opens the gate is the n-th). */
    void stage(int n) throws Exception {
        h.call("DEL", Harness.STAGE);
        h.gen(Harness.STAGE, n - 1, 0);
        h.call("XGROUP", "CREATE", Harness.STAGE, Harness.GROUP, "0", "ENTRIESREAD", "0");
    }

    /** The staged backlog becomes the queue's stream, and one XADD wakes its reader. */
    void open() throws Exception {
        h.call("RENAME", Harness.STAGE, Harness.STREAM);
        h.call("XADD", Harness.STREAM, "*", "payload", "{\"job\":\"last\"}");
    }

    /** Drains a warm-up backlog through the same code, so the timed runs measure compiled code. */
    void warmUp(Service s, int n) throws Exception {
        Figures.log("warm-up: %,d jobs", n);
        stage(n);
        drain(s, null, n, 0, 0, 0);
    }

    /**
     * Opens the gate on the staged stream and times it from the first read to the moment
     * everything new was read and nothing but {@code stillPending} is pending; its line (emitted),
     * or null for a warm-up ({@code name} null).
     */
    Map<String, Object> drain(Service s, String name, int n, long readBefore, long stillPending, int rep) throws Exception {
        s.mark();
        double cpu0 = h.redisCpu();
        open();
        long[] window = watch(readBefore, readBefore + n, stillPending, Duration.ofSeconds(120), () -> 0L, -1);
        double cpu1 = h.redisCpu();
        if (name == null) {
            return null;
        }
        return report(s, name, n, window, cpu1 - cpu0, Map.of("rep", rep));
    }

    /**
     * Polls XINFO GROUPS every 2 ms; returns {first-read nanos, done nanos}. Done when entries-read
     * reaches {@code readTarget}, pending is down to {@code stillPending} and {@code extra} (when
     * {@code extraTarget} >= 0) has reached it.
     */
    long[] watch(long readBefore, long readTarget, long stillPending, Duration timeout, Callable<Long> extra,
            long extraTarget) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long first = -1;
        while (System.nanoTime() < deadline) {
            long now = System.nanoTime();
            Map<String, Response> g = h.group();
            long read = g.get("entries-read").toLong();
            long pending = g.get("pending").toLong();
            if (first < 0 && read > readBefore) {
                first = now;
            }
            if (first >= 0 && read >= readTarget && pending <= stillPending
                    && (extraTarget < 0 || extra.call() >= extraTarget)) {
                return new long[] {first, now};
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException("timed out: " + h.group());
    }

    /** A timed window's line (emitted): throughput, Redis and service CPU per job, peak RSS, Redis's top commands. */
    Map<String, Object> report(Service s, String name, int n, long[] window, double redisCpuS, Map<String, Object> extra)
            throws Exception {
        double seconds = (window[1] - window[0]) / 1e9;
        double serviceCpuS = s.cpuSeconds() - s.cpuMark;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("jobs", n);
        m.put("seconds", Figures.round3(seconds));
        m.put("jobs_per_s", Math.round(n / seconds));
        m.put("redis_cpu_us_per_job", Figures.round2(redisCpuS * 1e6 / n));
        m.put("service_rss_peak_mb", s.peakRssMb());
        m.put("service_cpu_us_per_job", Figures.round2(serviceCpuS * 1e6 / n));
        m.put("redis_top_commands", h.topCommands(name, extra.get("rep"), n));
        m.putAll(extra);
        h.emit(m);
        return m;
    }
}
