package dev.redrive.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Many queues (issue 12): one service with n queues (handler noop); bursts of 200 jobs to one
 * quiet queue at a time, sampled across the queues: drain time from the XADD to the last ack, the
 * connections the service holds, its RSS; with {@code idle} the idle window ({@link Idle}) first.
 * The one-queue run's drain times are the others' yardstick.
 */
final class ManyQueues {

    private final Harness h;
    private final RedisProbe probe;
    private final int bursts;
    private double oneQueueP50 = -1, oneQueueMax = -1;

    ManyQueues(Harness h, int bursts) {
        this.h = h;
        this.probe = new RedisProbe(h);
        this.bursts = bursts;
    }

    static String queue(int i) {
        return i == 0 ? Harness.STREAM : "q" + i;
    }

    /** Starts a service with n queues; measures the idle window first (when idleSeconds > 0), then the bursts. */
    void run(int n, int idleSeconds) throws Exception {
        // Warm-up: the same bursts through the same process (on queues next to the sampled ones), so the
        // timed ones run compiled code, as every other figure here is measured after a warm-up.
        int warmUps = h.intArg("warm-up-bursts", 20);
        int burstJobs = h.intArg("burst-jobs", 200);
        int quietMs = h.intArg("quiet-ms", 300);
        int concurrency = h.intArg("queue-concurrency", 16);
        String batch = String.valueOf(Math.min(concurrency, 200));
        double redisAlone = -1;
        if (idleSeconds > 0) {
            double c0 = h.redisCpu();
            Thread.sleep(5000);
            redisAlone = Figures.round2((h.redisCpu() - c0) * 1e3 / 5);
        }
        Path file = prepare(n, concurrency, batch);
        long t0 = System.nanoTime();
        try (Service s = Service.start(h, "queues-" + n, "noop", Map.of("concurrency", String.valueOf(concurrency),
                "batch", batch), List.of("-Dquarkus.config.locations=" + file.toAbsolutePath()))) {
            awaitReading(s, n);
            double startup = (System.nanoTime() - t0) / 1e9;
            Thread.sleep(3000);
            int[] conns = probe.serviceConnections();
            Figures.log("%d queues: all reading after %.1f s; the service holds %d connections (%d blocked)", n, startup,
                    conns[0], conns[1]);
            if (idleSeconds > 0) {
                new Idle(h, probe).run(s, n, idleSeconds, redisAlone);
            }
            if (bursts <= 0) {
                return;
            }
            int[] sample = new int[bursts];
            for (int k = 0; k < bursts; k++) {
                sample[k] = (int) ((long) k * n / bursts);
            }
            long[] added = new long[n];
            for (int k = 0; k < warmUps; k++) {
                Thread.sleep(quietMs / 3);
                burst(queue((sample[k % bursts] + 1) % n), burstJobs, added, (sample[k % bursts] + 1) % n);
            }
            s.mark();
            probe.slowlogReset();
            double cpu0 = h.redisCpu();
            List<Double> drains = new ArrayList<>();
            for (int k = 0; k < bursts; k++) {
                Thread.sleep(quietMs);
                drains.add(burst(queue(sample[k]), burstJobs, added, sample[k]));
            }
            double cpu1 = h.redisCpu();
            int[] after = probe.serviceConnections();
            double[] d = drains.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double p50 = d.length % 2 == 1 ? d[d.length / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2;
            if (n == 1) {
                oneQueueP50 = p50;
                oneQueueMax = d[d.length - 1];
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "many queues: " + n + " queues, bursts of " + burstJobs + " jobs to one quiet queue at a time");
            m.put("queues", n);
            m.put("bursts", bursts);
            m.put("burst_jobs", burstJobs);
            m.put("queue_concurrency", concurrency);
            m.put("drain_ms_p50", Figures.round2(p50));
            m.put("drain_ms_max", Figures.round2(d[d.length - 1]));
            m.put("drain_ms_min", Figures.round2(d[0]));
            m.put("p50_vs_1_queue", oneQueueP50 > 0 ? Figures.round2(p50 / oneQueueP50) : null);
            m.put("max_vs_1_queue", oneQueueMax > 0 ? Figures.round2(d[d.length - 1] / oneQueueMax) : null);
            m.put("drains_ms", drains.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList().toString());
            m.put("queues_sampled", Arrays.stream(sample).mapToObj(ManyQueues::queue).toList().toString());
            m.put("startup_s", Figures.round1(startup));
            m.put("service_connections", conns[0]);
            m.put("service_connections_blocked", conns[1]);
            m.put("service_connections_after_bursts", after[0]);
            m.put("service_rss_mb", s.rssMb("VmRSS:"));
            m.put("service_rss_peak_mb", s.peakRssMb());
            m.put("redis_cpu_us_per_job", Figures.round2((cpu1 - cpu0) * 1e6 / (bursts * burstJobs)));
            m.put("service_cpu_us_per_job", Figures.round2((s.cpuSeconds() - s.cpuMark) * 1e6 / (bursts * burstJobs)));
            m.put("redis_top_commands", h.topCommands("queues-" + n, 1, bursts * burstJobs));
            m.put("redis_calls_over_1ms", probe.slowCalls());
            m.put("load", Figures.load());
            h.emit(m);
        }
    }

    /** Empties Redis, creates every queue's stream and group, and writes queues 1..n-1 in a properties file. */
    private Path prepare(int n, int concurrency, String batch) throws Exception {
        h.call("FLUSHALL");
        for (int i = 0; i < n; i += 500) {
            List<Request> creates = new ArrayList<>();
            for (int j = i; j < Math.min(n, i + 500); j++) {
                creates.add(Request.cmd(Command.XGROUP).arg("CREATE")
                        .arg(queue(j)).arg(Harness.GROUP).arg("$").arg("MKSTREAM"));
            }
            h.redis.batch(creates);
        }
        // Queues 1..n-1 in a properties file (a thousand -D options would do as well, but can be read)
        StringBuilder props = new StringBuilder();
        for (int i = 1; i < n; i++) {
            String q = "redrive.queues." + queue(i) + ".";
            props.append(q).append("handler=noop\n").append(q).append("concurrency=").append(concurrency).append('\n')
                    .append(q).append("batch=").append(batch).append('\n');
        }
        Path file = h.out.resolve("queues-" + n + ".properties");
        Files.writeString(file, props);
        return file;
    }

    static final Pattern READING = Pattern.compile("\\[Workers\\]\\s+queue \\S+: reading ");

    /** Waits until the service's log says every queue reads. */
    private static void awaitReading(Service s, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            Figures.check(s.process.alive(), "service with %d queues exited; see %s", n, s.log);
            // "[Workers]", then the log's trace and span ids (empty here), then the message
            long reading = Files.readAllLines(s.log).stream().filter(l -> READING.matcher(l).find()).count();
            if (reading >= n) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(n + " queues did not all start reading; see " + s.log);
    }

    /** XADDs `jobs` entries in one script call and returns the ms until the group has read and acked them all. */
    private double burst(String stream, int jobs, long[] added, int index) throws Exception {
        long target = added[index] + jobs;
        long t0 = System.nanoTime();
        h.call("EVAL", Harness.GEN, "1", stream, String.valueOf(jobs), String.valueOf(added[index]));
        added[index] = target;
        long deadline = t0 + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Map<String, Response> g = h.group(stream);
            if (Punctuality.read(g) >= target && g.get("pending").toLong() == 0) {
                return (System.nanoTime() - t0) / 1e6;
            }
            Thread.sleep(1);
        }
        throw new IllegalStateException("queue " + stream + " did not drain a burst of " + jobs + " in 60 s: "
                + h.group(stream));
    }
}
