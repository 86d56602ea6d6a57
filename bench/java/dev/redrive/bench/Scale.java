package dev.redrive.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.redis.client.Response;

/**
 * Issue 12's measurements (scale), run by bench/run.sh through {@link Bench} with the same
 * conventions: the packaged service on the private redis-server, one "RESULT {json}" line each.
 * <ul>
 * <li>{@code manyqueues}: 1, 100 and 1,000 queues (handler noop) in one process; bursts of 200 jobs
 * to one quiet queue at a time, sampled across the queues: drain time from the XADD to the last
 * ack, the connections the service holds, its RSS;</li>
 * <li>{@code idle}: 1,000 queues that never see a job, for 60 s after start-up settles: Redis
 * commands and CPU per second (INFO commandstats and cpu, reset at the window's start);</li>
 * <li>{@code punctuality}: 10,000 jobs whose first attempt fails with a Retry-After of 0.2-5 s
 * (handler {@code retry-once}), which records second attempt start minus (first attempt + wait);</li>
 * <li>{@code httpceiling}: a JVM of its own calling the same no-op server with the Vert.x HTTP client
 * configured as the HTTP handler's (keep-alive, 64 calls in flight, the same headers), and the
 * HTTP handler's ratio to it when {@code http} ran in the same session.</li>
 * </ul>
 */
final class Scale {

    static final String ALL = "manyqueues,idle,punctuality,httpceiling";

    /** XADDs ARGV[1] jobs numbered from ARGV[2], each failing once for 0.2-5 s (ARGV[4] + 0..ARGV[5] ms). */
    static final String RETRY_GEN = """
            local n, from, run, lo, span = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
            for i = from, from + n - 1 do
              redis.call('XADD', KEYS[1], '*', 'retry-after-ms', tostring(lo + (i * 7919) % (span + 1)), 'run', run,
                'payload', '{"job":' .. i .. '}')
            end
            return n""";

    static double oneQueueP50 = -1, oneQueueMax = -1;

    private Scale() {
    }

    static void run(Set<String> only, Map<String, String> a) throws Exception {
        int[] counts = Arrays.stream(a.getOrDefault("queues", "1,100,1000").split(",")).mapToInt(Integer::parseInt)
                .toArray();
        int idleQueues = Integer.parseInt(a.getOrDefault("idle-queues", "1000"));
        int idleSeconds = Integer.parseInt(a.getOrDefault("idle-seconds", "60"));
        if (only.contains("manyqueues")) {
            for (int n : counts) {
                queues(n, only.contains("idle") && n == idleQueues ? idleSeconds : 0, a);
            }
        }
        if (only.contains("idle") && !(only.contains("manyqueues") && Arrays.stream(counts).anyMatch(n -> n == idleQueues))) {
            Map<String, String> idleOnly = new LinkedHashMap<>(a);
            idleOnly.put("bursts", "0");
            queues(idleQueues, idleSeconds, idleOnly);
        }
        if (only.contains("punctuality")) {
            int retryJobs = Integer.parseInt(a.getOrDefault("retry-jobs", "10000"));
            punctuality(retryJobs, Integer.parseInt(a.getOrDefault("retry-enqueue-ms", "1000")),
                    Integer.parseInt(a.getOrDefault("retry-warm-up", String.valueOf(retryJobs))));
        }
        if (only.contains("httpceiling") && !only.contains("http")) {
            httpCeiling();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // many queues and idle: one service with n queues

    static String queue(int i) {
        return i == 0 ? Bench.STREAM : "q" + i;
    }

    /** Starts a service with n queues; measures the idle window first (when idleSeconds > 0), then the bursts. */
    static void queues(int n, int idleSeconds, Map<String, String> a) throws Exception {
        int bursts = Integer.parseInt(a.getOrDefault("bursts", "20"));
        // Warm-up: the same bursts through the same process (on queues next to the sampled ones), so the
        // timed ones run compiled code, as every other figure here is measured after a warm-up.
        int warmUps = Integer.parseInt(a.getOrDefault("warm-up-bursts", "20"));
        int burstJobs = Integer.parseInt(a.getOrDefault("burst-jobs", "200"));
        int quietMs = Integer.parseInt(a.getOrDefault("quiet-ms", "300"));
        int concurrency = Integer.parseInt(a.getOrDefault("queue-concurrency", "16"));
        String batch = String.valueOf(Math.min(concurrency, 200));
        Bench.call("FLUSHALL");
        for (int i = 0; i < n; i += 500) {
            List<io.vertx.redis.client.Request> creates = new ArrayList<>();
            for (int j = i; j < Math.min(n, i + 500); j++) {
                creates.add(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.XGROUP).arg("CREATE")
                        .arg(queue(j)).arg(Bench.GROUP).arg("$").arg("MKSTREAM"));
            }
            Bench.conn.batch(creates).toCompletionStage().toCompletableFuture().get();
        }
        // Queues 1..n-1 in a properties file (a thousand -D options would do as well, but can be read)
        StringBuilder props = new StringBuilder();
        for (int i = 1; i < n; i++) {
            String q = "redrive.queues." + queue(i) + ".";
            props.append(q).append("handler=noop\n").append(q).append("concurrency=").append(concurrency).append('\n')
                    .append(q).append("batch=").append(batch).append('\n');
        }
        if (idleSeconds > 0) {
            double c0 = Bench.redisCpu();
            Thread.sleep(5000);
            redisAlone = Bench.round2((Bench.redisCpu() - c0) * 1e3 / 5);
        }
        Path file = Bench.out.resolve("queues-" + n + ".properties");
        Files.writeString(file, props);
        long t0 = System.nanoTime();
        try (Bench.Service s = Bench.Service.start("queues-" + n, "noop", Map.of("concurrency", String.valueOf(concurrency),
                "batch", batch), List.of("-Dquarkus.config.locations=" + file.toAbsolutePath()))) {
            awaitReading(s, n);
            double startup = (System.nanoTime() - t0) / 1e9;
            Thread.sleep(3000);
            int[] conns = serviceConnections();
            Bench.log("%d queues: all reading after %.1f s; the service holds %d connections (%d blocked)", n, startup,
                    conns[0], conns[1]);
            if (idleSeconds > 0) {
                idle(s, n, idleSeconds);
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
            slowlogReset();
            double cpu0 = Bench.redisCpu();
            List<Double> drains = new ArrayList<>();
            for (int k = 0; k < bursts; k++) {
                Thread.sleep(quietMs);
                drains.add(burst(queue(sample[k]), burstJobs, added, sample[k]));
            }
            double cpu1 = Bench.redisCpu();
            int[] after = serviceConnections();
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
            m.put("drain_ms_p50", Bench.round2(p50));
            m.put("drain_ms_max", Bench.round2(d[d.length - 1]));
            m.put("drain_ms_min", Bench.round2(d[0]));
            m.put("p50_vs_1_queue", oneQueueP50 > 0 ? Bench.round2(p50 / oneQueueP50) : null);
            m.put("max_vs_1_queue", oneQueueMax > 0 ? Bench.round2(d[d.length - 1] / oneQueueMax) : null);
            m.put("drains_ms", drains.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList().toString());
            m.put("queues_sampled", Arrays.stream(sample).mapToObj(Scale::queue).toList().toString());
            m.put("startup_s", Bench.round1(startup));
            m.put("service_connections", conns[0]);
            m.put("service_connections_blocked", conns[1]);
            m.put("service_connections_after_bursts", after[0]);
            m.put("service_rss_mb", rssMb(s, "VmRSS:"));
            m.put("service_rss_peak_mb", s.peakRssMb());
            m.put("redis_cpu_us_per_job", Bench.round2((cpu1 - cpu0) * 1e6 / (bursts * burstJobs)));
            m.put("service_cpu_us_per_job", Bench.round2((s.cpuSeconds() - s.cpuMark) * 1e6 / (bursts * burstJobs)));
            m.put("redis_top_commands", Bench.topCommands("queues-" + n, 1, bursts * burstJobs));
            m.put("redis_calls_over_1ms", slowCalls());
            m.put("load", load());
            Bench.emit(m);
        }
    }

    static final Pattern READING = Pattern.compile("\\[Workers\\]\\s+queue \\S+: reading ");

    /** Waits until the service's log says every queue reads. */
    static void awaitReading(Bench.Service s, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            Bench.check(s.process.isAlive(), "service with %d queues exited; see %s", n, s.log);
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
    static double burst(String stream, int jobs, long[] added, int index) throws Exception {
        long target = added[index] + jobs;
        long t0 = System.nanoTime();
        Bench.call("EVAL", Bench.GEN, "1", stream, String.valueOf(jobs), String.valueOf(added[index]));
        added[index] = target;
        long deadline = t0 + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Map<String, Response> g = Bench.group(stream);
            if (read(g) >= target && g.get("pending").toLong() == 0) {
                return (System.nanoTime() - t0) / 1e6;
            }
            Thread.sleep(1);
        }
        throw new IllegalStateException("queue " + stream + " did not drain a burst of " + jobs + " in 60 s: "
                + Bench.group(stream));
    }

    /** The service's connections to Redis (all but the harness's one) and how many of them are blocked. */
    static int[] serviceConnections() throws Exception {
        long harness = Bench.call("CLIENT", "ID").toLong();
        int all = 0, blocked = 0;
        for (String line : Bench.call("CLIENT", "LIST").toString().split("\r?\n")) {
            if (line.isBlank() || line.startsWith("id=" + harness + " ")) {
                continue;
            }
            all++;
            if (line.contains(" flags=b ")) {
                blocked++;
            }
        }
        return new int[] {all, blocked};
    }

    /** CPU of the service's JIT compiler threads so far (the JVM still compiles well after start-up). */
    static double jitSeconds(Bench.Service s) throws Exception {
        double ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/" + s.process.pid() + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    if (Files.readString(t.resolve("comm")).contains("CompilerThre")) {
                        String[] f = Files.readString(t.resolve("stat")).replaceFirst("^.*\\) ", "").split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (java.io.IOException gone) {
                    // the thread ended
                }
            }
        }
        return ticks / 100.0;
    }

    /** Redis CPU per second with no client at all (its own housekeeping, hz 10), in ms/s. */
    static double redisAlone = -1;

    static void idle(Bench.Service s, int n, int seconds) throws Exception {
        // Start-up settled: the first gauge rounds (every 5 s) told every queue's safety nets there is nothing to look for.
        Thread.sleep(10_000);
        Bench.log("idle: %d queues, %d s", n, seconds);
        double jit0 = jitSeconds(s);
        s.mark();
        slowlogReset();
        double cpu0 = Bench.redisCpu();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        String stats = Bench.call("INFO", "commandstats").toString();
        double cpu1 = Bench.redisCpu();
        double window = (System.nanoTime() - t0) / 1e9;
        long processed = infoLong(Bench.call("INFO", "stats").toString(), "total_commands_processed");
        Files.writeString(Bench.out.resolve("commandstats-idle-" + n + ".txt"), stats);
        Matcher mt = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)").matcher(stats);
        Map<String, long[]> calls = new LinkedHashMap<>();
        long all = 0, blocking = 0;
        while (mt.find()) {
            String cmd = mt.group(1);
            if (cmd.equals("info") || cmd.startsWith("config") || cmd.startsWith("slowlog") || cmd.startsWith("client|id")
                    || cmd.startsWith("client|list")) {
                continue; // the harness's own
            }
            long c = Long.parseLong(mt.group(2));
            calls.put(cmd, new long[] {c, Long.parseLong(mt.group(3))});
            all += c;
            if (cmd.equals("xreadgroup") || cmd.equals("client|unblock")) {
                blocking += c;
            }
        }
        List<Map.Entry<String, long[]>> top = new ArrayList<>(calls.entrySet());
        top.sort((x, y) -> Long.compare(y.getValue()[0], x.getValue()[0]));
        StringBuilder b = new StringBuilder();
        for (var e : top.subList(0, Math.min(8, top.size()))) {
            b.append(b.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT, "%s %.2f/s %.1fus/call", e.getKey(),
                    e.getValue()[0] / window, e.getValue()[1] / (double) Math.max(1, e.getValue()[0])));
        }
        double redisCpuS = cpu1 - cpu0;
        int[] conns = serviceConnections();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "idle: " + n + " queues without jobs for " + seconds + " s");
        m.put("queues", n);
        m.put("seconds", Bench.round1(window));
        m.put("commands_per_s", Bench.round1(all / window));
        m.put("commands_per_s_per_queue", Bench.round3(all / window / n));
        m.put("commands_per_s_per_queue_beyond_blocking_read", Bench.round3((all - blocking) / window / n));
        m.put("blocking_read_commands_per_s", Bench.round2(blocking / window));
        m.put("client_commands_per_s", Bench.round1(processed / window));
        m.put("redis_cpu_ms_per_s", Bench.round2(redisCpuS * 1e3 / window));
        m.put("redis_cpu_us_per_s_per_queue", Bench.round2(redisCpuS * 1e6 / window / n));
        m.put("redis_cpu_ms_per_s_without_service", redisAlone);
        m.put("service_cpu_ms_per_s", Bench.round1((s.cpuSeconds() - s.cpuMark) * 1e3 / window));
        m.put("service_jit_cpu_ms_per_s", Bench.round1((jitSeconds(s) - jit0) * 1e3 / window));
        m.put("service_connections", conns[0]);
        m.put("service_connections_blocked", conns[1]);
        m.put("service_rss_mb", rssMb(s, "VmRSS:"));
        m.put("redis_top_commands", b.toString());
        m.put("redis_calls_over_1ms", slowCalls());
        m.put("load", load());
        Bench.emit(m);
    }

    // ---------------------------------------------------------------------------------------------
    // retry punctuality

    static void punctuality(int jobs, int enqueueMs, int warm) throws Exception {
        Bench.call("FLUSHALL");
        Bench.call("XGROUP", "CREATE", Bench.STREAM, Bench.GROUP, "$", "MKSTREAM");
        // The queue's backoff is the 0.2 s floor; each job's Retry-After (0.2-5 s) sets its own wait.
        try (Bench.Service s = Bench.Service.start("punctuality", "retry-once",
                Map.of("backoff", "200ms", "jitter", "0", "attempts", "3"))) {
            Bench.log("punctuality: warm-up, %,d jobs failing once for 0.2-1 s (recorded apart; as many as measured, like the failure path)", warm);
            Waits fresh = Waits.of(s);
            long[] w = retries(warm, 0, "warm-up", 200, 800, enqueueMs / 5);
            Map<String, Object> freshWaits = Waits.of(s).since(fresh, s, warm);
            Bench.log("punctuality: %,d jobs failing once for 0.2-5 s, enqueued over %d ms", jobs, enqueueMs);
            double jit0 = jitSeconds(s);
            s.mark();
            // Calls that held Redis for 1 ms or more hold every retry due meanwhile.
            slowlogReset();
            double cpu0 = Bench.redisCpu();
            long t0 = System.nanoTime();
            long[] r = retries(jobs, w[0], "measured", 200, 4800, enqueueMs);
            long t1 = System.nanoTime();
            double cpu1 = Bench.redisCpu();
            String metrics = s.metrics();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "retry punctuality: " + jobs + " jobs failing once, Retry-After 0.2-5 s");
            m.put("jobs", jobs);
            m.put("enqueued_over_ms", enqueueMs);
            m.put("retries_waiting_max", r[1]);
            String lateness = "redrive_bench_retry_lateness_seconds";
            for (String q : new String[] {"0.5", "0.99", "0.999"}) {
                Double v = labelled(metrics, lateness + "{", "quantile=\"" + q + "\"");
                m.put("lateness_p" + q.substring(2) + (q.equals("0.5") ? "0" : "") + "_ms", v == null ? null : Bench.round2(v * 1000));
            }
            Double max = labelled(metrics, lateness + "_max{", null);
            m.put("lateness_max_ms", max == null ? null : Bench.round2(max * 1000));
            Double count = labelled(metrics, lateness + "_count{", null);
            m.put("recorded", count == null ? 0 : count.longValue());
            Double early = labelled(metrics, "redrive_bench_retry_early_total{", null);
            m.put("early", early == null ? 0 : early.longValue());
            m.put("seconds", Bench.round3((t1 - t0) / 1e9));
            m.put("redis_cpu_us_per_job", Bench.round2((cpu1 - cpu0) * 1e6 / jobs));
            m.put("service_cpu_us_per_job", Bench.round2((s.cpuSeconds() - s.cpuMark) * 1e6 / jobs));
            m.put("service_jit_cpu_us_per_job", Bench.round2((jitSeconds(s) - jit0) * 1e6 / jobs));
            m.put("service_rss_peak_mb", s.peakRssMb());
            m.put("redis_top_commands", Bench.topCommands("punctuality", 1, jobs));
            m.put("redis_calls_over_1ms", slowCalls());
            m.put("load", load());
            Bench.emit(m);
            Bench.check(count != null && count.longValue() == jobs, "punctuality: %s of %d second attempts recorded",
                    count, jobs);
            fresh(metrics, warm, w[1], freshWaits);
        }
    }

    /**
     * XADDs n jobs (numbered from `from`) evenly over enqueueMs, then waits until every one is read and
     * acked after its second attempt; returns {jobs numbered so far, most retries seen waiting at once}.
     */
    /**
     * Issue 27 item 4: the warm-up's lateness, recorded apart, is what a fresh process gives (a
     * rolling deploy): its jobs are enqueued as soon as the service reads, so their retries fall in
     * its first minute, with the JIT still compiling the path.
     */
    static void fresh(String metrics, int warm, long waiting, Map<String, Object> waits) {
        String lateness = "redrive_bench_retry_lateness_seconds";
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "retry punctuality, fresh process: the warm-up's " + warm + " jobs failing once, Retry-After 0.2-1 s, "
                + "enqueued as the service starts reading");
        m.put("jobs", warm);
        m.put("retries_waiting_max", waiting);
        for (String q : new String[] {"0.5", "0.99", "0.999"}) {
            Double v = labelled(metrics, lateness + "{", "quantile=\"" + q + "\"", "warm-up");
            m.put("lateness_p" + q.substring(2) + (q.equals("0.5") ? "0" : "") + "_ms", v == null ? null : Bench.round2(v * 1000));
        }
        Double max = labelled(metrics, lateness + "_max{", null, "warm-up");
        m.put("lateness_max_ms", max == null ? null : Bench.round2(max * 1000));
        Double early = labelled(metrics, "redrive_bench_retry_early_total{", null, "warm-up");
        m.put("early", early == null ? 0 : early.longValue());
        m.put("target", "p99 <= 20 ms");
        m.putAll(waits);
        Bench.emit(m);
    }

    static long[] retries(int n, long from, String run, int lo, int span, int enqueueMs) throws Exception {
        Map<String, Response> g0 = Bench.group();
        long target = read(g0) + n;
        int ticks = Math.max(1, enqueueMs / 10);
        long start = System.nanoTime();
        long maxWaiting = 0;
        for (int t = 0, sent = 0; t < ticks; t++) {
            int chunk = (int) ((long) n * (t + 1) / ticks) - sent;
            Bench.call("EVAL", RETRY_GEN, "1", Bench.STREAM, String.valueOf(chunk), String.valueOf(from + sent), run,
                    String.valueOf(lo), String.valueOf(span));
            sent += chunk;
            if (t % 10 == 0) {
                maxWaiting = Math.max(maxWaiting, waitingForRetry());
            }
            long next = start + TimeUnit.MILLISECONDS.toNanos(10L * (t + 1));
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lo + span + 60_000L);
        while (System.nanoTime() < deadline) {
            Map<String, Response> g = Bench.group();
            if (read(g) >= target && g.get("pending").toLong() == 0) {
                return new long[] {from + n, maxWaiting};
            }
            maxWaiting = Math.max(maxWaiting, waitingForRetry());
            Thread.sleep(50);
        }
        throw new IllegalStateException("retries of run " + run + " not all done 60 s after the last was due: "
                + Bench.group() + ", waiting " + waitingForRetry());
    }

    static Map<String, String> scripts;

    /** The service's scripts by SHA1, as LuaScripts assembles them. */
    static Map<String, String> scriptNames() throws Exception {
        if (scripts == null) {
            scripts = new LinkedHashMap<>();
            dev.redrive.redis.LuaScripts lua = new dev.redrive.redis.LuaScripts();
            for (var script : dev.redrive.redis.LuaScripts.Script.values()) {
                byte[] sha = java.security.MessageDigest.getInstance("SHA-1")
                        .digest(lua.body(script).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                scripts.put(java.util.HexFormat.of().formatHex(sha), script.file());
            }
        }
        return scripts;
    }

    static void slowlogReset() throws Exception {
        Bench.call("CONFIG", "SET", "slowlog-log-slower-than", "1000");
        Bench.call("SLOWLOG", "RESET");
    }

    /** SLOWLOG since its reset: how many calls took 1 ms or more, and the longest few (command, arguments, ms). */
    static String slowCalls() throws Exception {
        long n = Bench.call("SLOWLOG", "LEN").toLong();
        List<String> longest = new ArrayList<>();
        List<Response> all = new ArrayList<>();
        Bench.call("SLOWLOG", "GET", "128").forEach(all::add);
        all.sort((x, y) -> Long.compare(y.get(2).toLong(), x.get(2).toLong()));
        for (Response e : all.subList(0, Math.min(5, all.size()))) {
            Response args = e.size() > 3 ? e.get(3) : null;
            if (args == null || args.size() == 0) {
                continue;
            }
            String what = args.get(0).toString() + (args.get(0).toString().equalsIgnoreCase("evalsha") && args.size() > 1
                    ? " " + scriptNames().getOrDefault(args.get(1).toString(), args.get(1).toString().substring(0, 8)) : "");
            // SLOWLOG keeps 32 arguments; the last then says "... (N more arguments)"
            Matcher more = Pattern.compile("\\((\\d+) more arguments\\)").matcher(args.get(args.size() - 1).toString());
            long count = args.size() + (more.find() ? Long.parseLong(more.group(1)) - 1 : 0);
            longest.add(String.format(Locale.ROOT, "%s (%d args) %.1f ms", what, count, e.get(2).toLong() / 1000.0));
        }
        return n + " calls; longest: " + String.join(", ", longest);
    }

    /** The group's entries-read; nil (0 here) until its first read of a stream created empty. */
    static long read(Map<String, Response> group) {
        Response r = group.get("entries-read");
        return r == null ? 0 : r.toLong();
    }

    static long waitingForRetry() throws Exception {
        Response summary = Bench.call("XPENDING", Bench.STREAM, Bench.GROUP);
        if (summary.get(0).toLong() == 0 || summary.get(3) == null) {
            return 0;
        }
        for (Response owner : summary.get(3)) {
            if (owner.get(0).toString().equals(Bench.RETRY_CONSUMER)) {
                return owner.get(1).toLong();
            }
        }
        return 0;
    }

    /** The value of the first Prometheus line of `metric` ("name{") that also holds `label` (or any). */
    static Double labelled(String text, String metric, String label) {
        return labelled(text, metric, label, "measured");
    }

    static Double labelled(String text, String metric, String label, String run) {
        for (String line : text.split("\n")) {
            if (line.startsWith(metric) && line.contains("run=\"" + run + "\"") && (label == null || line.contains(label))) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    // ---------------------------------------------------------------------------------------------
    // the HTTP ceiling: a JVM of its own, the HTTP handler's client, the same no-op server

    static final int IN_FLIGHT = 64; // the HTTP handler's bulkhead (redrive.queues.<q>.http.bulkhead)

    /**
     * The ceiling alone (--only httpceiling without http); with http as well, Bench.http runs the
     * two interleaved, a handler rep then a ceiling rep, so the box's ups and downs fall on both.
     */
    static void httpCeiling() throws Exception {
        HttpServer server = Bench.noopServer();
        try (Ceiling ceiling = Ceiling.start(server.actualPort(), Math.max(10, Bench.jobs / 4), Bench.HTTP_WARM_UP)) {
            for (int rep = 1; rep <= Bench.reps; rep++) {
                ceiling.rep(rep);
            }
            compareHttp(ceiling.results);
        } finally {
            server.close();
        }
    }

    /** The handler's runs beside the ceiling's: medians, and each pair's ratio (rep k of both). */
    static void compareHttp(List<Map<String, Object>> ceilings) {
        List<Map<String, Object>> handler = Bench.results.stream()
                .filter(r -> String.valueOf(r.get("name")).startsWith("HTTP handler against")).toList();
        if (handler.isEmpty() || ceilings.isEmpty()) {
            return;
        }
        double h = Bench.median(handler, "jobs_per_s"), c = Bench.median(ceilings, "jobs_per_s");
        List<Double> pairs = new ArrayList<>();
        for (int k = 0; k < Math.min(handler.size(), ceilings.size()); k++) {
            pairs.add(Bench.round1(((Number) handler.get(k).get("jobs_per_s")).doubleValue()
                    / ((Number) ceilings.get(k).get("jobs_per_s")).doubleValue() * 100));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "HTTP handler vs HTTP ceiling");
        m.put("handler_jobs_per_s", Math.round(h));
        m.put("ceiling_jobs_per_s", Math.round(c));
        m.put("ratio_pct", Bench.round1(h / c * 100));
        m.put("pair_ratios_pct", pairs.toString().replace(" ", ""));
        m.put("handler_service_cpu_us_per_job", Bench.median(handler, "service_cpu_us_per_job"));
        m.put("ceiling_client_cpu_us_per_call", Bench.median(ceilings, "client_cpu_us_per_call"));
        Bench.emit(m);
    }

    /**
     * The ceiling's client JVM, kept running between its reps: it warms up once, then runs one rep
     * of n calls per "go" line on its stdin and answers with a CEILING line.
     */
    static final class Ceiling implements AutoCloseable {
        final Process process;
        final java.io.BufferedWriter in;
        final java.io.BufferedReader out;
        final int n;
        final Path log;
        final List<Map<String, Object>> results = new ArrayList<>();

        private Ceiling(Process process, int n, Path log) {
            this.process = process;
            this.n = n;
            this.log = log;
            this.in = process.outputWriter();
            this.out = process.inputReader();
        }

        static Ceiling start(int port, int n, int warm) throws Exception {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            for (String o : Bench.javaOpts.trim().split("\\s+")) {
                if (!o.isEmpty()) {
                    cmd.add(o.replace("{tag}", "httpceiling"));
                }
            }
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Scale.class.getName(), "http-client",
                    String.valueOf(port), String.valueOf(n), String.valueOf(warm)));
            Path log = Bench.out.resolve("httpceiling.log");
            Files.writeString(Bench.out.resolve("httpceiling.cmd"), String.join(" ", cmd) + "\n");
            Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
            Ceiling c = new Ceiling(p, n, log);
            Bench.check("READY".equals(c.out.readLine()), "the HTTP ceiling client did not warm up; see %s", log);
            return c;
        }

        Map<String, Object> rep(int rep) throws Exception {
            in.write("go\n");
            in.flush();
            String line = out.readLine();
            Bench.check(line != null && line.startsWith("CEILING "), "the HTTP ceiling client failed; see %s", log);
            String[] f = line.split(" ");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "HTTP ceiling: one JVM, Vert.x HTTP client, " + IN_FLIGHT
                    + " in flight, keep-alive, the same no-op server");
            m.put("jobs", n);
            m.put("seconds", Double.parseDouble(f[1]));
            m.put("jobs_per_s", Math.round(n / Double.parseDouble(f[1])));
            m.put("client_cpu_us_per_call", Double.parseDouble(f[2]));
            m.put("client_rss_peak_mb", Double.parseDouble(f[3]));
            m.put("rep", rep);
            m.put("load", load());
            Bench.emit(m);
            results.add(m);
            return m;
        }

        @Override
        public void close() throws Exception {
            in.close(); // EOF: the client stops
            Bench.check(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0,
                    "the HTTP ceiling client failed; see %s", log);
        }
    }

    /**
     * The ceiling client's JVM: "http-client PORT N WARM"; prints READY after the warm-up, then for
     * each line on stdin "CEILING seconds cpu-us-per-call rss-peak-mb" of n calls, until EOF.
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[1]), n = Integer.parseInt(args[2]), warm = Integer.parseInt(args[3]);
        Vertx vertx = Vertx.vertx();
        // as dev.redrive.http.OutboundHttp builds the HTTP handler's client
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(256));
        String url = "http://127.0.0.1:" + port + "/jobs";
        calls(client, url, warm);
        System.out.println("READY");
        System.out.flush();
        var stdin = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        while (stdin.readLine() != null) {
            long cpu0 = cpuNanos();
            double seconds = calls(client, url, n);
            System.out.printf(Locale.ROOT, "CEILING %.3f %.2f %.1f%n", seconds, (cpuNanos() - cpu0) / 1000.0 / n,
                    peakRss());
            System.out.flush();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }

    /** n POSTs, 64 outstanding, each like the HTTP handler's (a small JSON body, the same six headers). */
    static double calls(HttpClient client, String url, int n) throws Exception {
        AtomicLong sent = new AtomicLong(), done = new AtomicLong(), failed = new AtomicLong();
        CompletableFuture<Void> finished = new CompletableFuture<>();
        Runnable[] next = new Runnable[1];
        next[0] = () -> {
            long i = sent.getAndIncrement();
            if (i >= n) {
                return;
            }
            String id = "bench/1764570000000-" + i;
            RequestOptions o = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url).setIdleTimeout(10_000)
                    .putHeader("Content-Type", "application/json").putHeader("Redrive-Job-Id", id)
                    .putHeader("Redrive-Stream", "bench").putHeader("Redrive-Job", "bench")
                    .putHeader("Redrive-Attempt", "1").putHeader("Redrive-Max-Attempts", "3")
                    .putHeader("Idempotency-Key", id);
            client.request(o).compose(req -> req.send(Buffer.buffer("{\"job\":" + i + "}")))
                    .compose(resp -> resp.body().map(b -> resp.statusCode()))
                    .onComplete(ar -> {
                        if (ar.failed() || ar.result() >= 300) {
                            failed.incrementAndGet();
                        }
                        if (done.incrementAndGet() == n) {
                            finished.complete(null);
                        } else {
                            next[0].run();
                        }
                    });
        };
        long t0 = System.nanoTime();
        for (int k = 0; k < IN_FLIGHT; k++) {
            next[0].run();
        }
        finished.get(300, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " calls failed");
        }
        return seconds;
    }

    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static double peakRss() throws Exception {
        return rssOf(Path.of("/proc/self/status"), "VmHWM:");
    }

    // ---------------------------------------------------------------------------------------------

    static double rssMb(Bench.Service s, String field) throws Exception {
        return rssOf(Path.of("/proc/" + s.process.pid() + "/status"), field);
    }

    static double rssOf(Path status, String field) throws Exception {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith(field)) {
                return Bench.round1(Long.parseLong(line.replaceAll("\\D", "")) / 1024.0);
            }
        }
        return -1;
    }

    static long infoLong(String info, String field) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim());
            }
        }
        return -1;
    }

    static String load() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).trim().replaceAll("^(\\S+ \\S+ \\S+).*", "$1");
    }
}
