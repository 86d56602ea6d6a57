package dev.redrive.bench;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.Fingerprint;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * redrive's benchmark (issue 6). bench/run.sh starts the private redis-server and runs this file
 * with the packaged service's own classes and libraries on the class path (the Vert.x Redis client
 * redrive uses; its record writer, keys and scripts for seeding dead letters).
 * Every measurement starts the packaged service (quarkus-run.jar) with a bench handler, warms it up,
 * then opens a gate (below) and watches the consumer group from outside; it prints one line
 * "RESULT {json}" per measurement.
 * <p>
 * The gate: a stream is built under a staging key with its consumer group, then RENAMEd over the
 * queue's stream and woken with one XADD. The service reads it as it would read any backlog, and
 * the timed window runs from the first read (the group's entries-read moves) to the last ack
 * (entries-read complete, nothing pending), polled every 2 ms with XINFO GROUPS.
 */
public class Bench {

    static final String STREAM = "bench";
    static final String STAGE = "bench:stage";
    static final String BASE = "bench:base";
    static final String GROUP = "redrive";
    static final String RETRY_CONSUMER = "redrive-retry";
    static final String DLQ = "{bench}:dlq";
    static final String BENCH_USER = "bench";
    static final String BENCH_PASSWORD = "bench-secret";

    static final String GEN = """
            local n, from = tonumber(ARGV[1]), tonumber(ARGV[2])
            for i = 0, n - 1 do redis.call('XADD', KEYS[1], '*', 'payload', '{"job":' .. (from + i) .. '}') end
            return n""";

    static int redisPort, jobs, reps, concurrency, batch;
    static Path jar, out;
    static String javaOpts;
    static Vertx vertx;
    static RedisConnection conn;
    static final List<Map<String, Object>> results = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        redisPort = Integer.parseInt(a.get("redis-port"));
        jobs = Integer.parseInt(a.getOrDefault("jobs", "200000"));
        reps = Integer.parseInt(a.getOrDefault("reps", "5"));
        concurrency = Integer.parseInt(a.getOrDefault("concurrency", "1000"));
        batch = Integer.parseInt(a.getOrDefault("batch", String.valueOf(Math.min(concurrency, 200))));
        jar = Path.of(a.get("jar"));
        out = Path.of(a.get("out"));
        javaOpts = a.getOrDefault("java-opts", "");
        // names, not substrings: "httpceiling" (Scale) must not also run "http"
        java.util.Set<String> only = java.util.Set.of(a.getOrDefault("only",
                "success,growth,failure,replay,latency,http,traced,console," + Scale.ALL).split(","));
        int latencySeconds = Integer.parseInt(a.getOrDefault("latency-seconds", "30"));
        int latencyRate = Integer.parseInt(a.getOrDefault("latency-rate", "5000"));
        int old = Integer.parseInt(a.getOrDefault("old", "1000000"));
        int waitingRetry = Integer.parseInt(a.getOrDefault("waiting-retry", "10000"));
        Files.createDirectories(out);

        vertx = Vertx.vertx();
        conn = Redis.createClient(vertx, new RedisOptions().setConnectionString("redis://127.0.0.1:" + redisPort)
                .setPreferredProtocolVersion(ProtocolVersion.RESP2).setMaxWaitingHandlers(1_000_000))
                .connect().toCompletionStage().toCompletableFuture().get();
        try {
            if (only.contains("success") || only.contains("growth") || only.contains("replay")) {
                successAndGrowth(only, old, waitingRetry);
            }
            if (only.contains("failure")) {
                failure();
            }
            if (only.contains("latency")) {
                latency(latencyRate, latencySeconds);
            }
            if (only.contains("http")) {
                http(only.contains("httpceiling"));
            }
            if (only.contains("traced")) {
                Traced.run();
            }
            if (only.contains("console")) {
                console(Integer.parseInt(a.getOrDefault("console-entries", "100000")));
            }
            Scale.run(only, a);
            Production.run(only);
        } finally {
            vertx.close();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // 1. success path, 5. cost growth, 3. bulk replay: one service, handler noop

    static void successAndGrowth(java.util.Set<String> only, int old, int waitingRetry) throws Exception {
        call("FLUSHALL");
        call("XGROUP", "CREATE", STREAM, GROUP, "$", "MKSTREAM");
        // A long backoff keeps the PEL's waiting retries of measurement 5 waiting all through it.
        try (Service s = Service.start("success", "noop", Map.of("backoff", "10m", "attempts", "3"))) {
            warmUp(s, jobs);
            warmUp(s, jobs);
            List<Map<String, Object>> success = new ArrayList<>();
            List<Map<String, Object>> growth = new ArrayList<>();
            if (only.contains("growth")) {
                log("building the cost-growth prefix: %,d old entries, %,d waiting for retry", old, waitingRetry);
                call("DEL", BASE);
                gen(BASE, old, 0);
                call("XGROUP", "CREATE", BASE, GROUP, "$", "ENTRIESREAD", String.valueOf(old));
                gen(BASE, waitingRetry, old);
                Response r = call("XREADGROUP", "GROUP", GROUP, RETRY_CONSUMER, "COUNT", String.valueOf(waitingRetry),
                        "STREAMS", BASE, ">");
                check(r.get(0).get(1).size() == waitingRetry, "expected %d entries for the retry consumer", waitingRetry);
            }
            // Alternate the order, so a JIT or a neighbour's build that warms up or calms down over
            // the run does not favour one side of the comparison.
            for (int rep = 1; rep <= reps; rep++) {
                for (String which : rep % 2 == 1 ? List.of("success", "growth") : List.of("growth", "success")) {
                    if (which.equals("success") && only.contains("success")) {
                        call("DEL", STAGE);
                        gen(STAGE, jobs - 1, 0);
                        call("XGROUP", "CREATE", STAGE, GROUP, "0", "ENTRIESREAD", "0");
                        success.add(drain(s, "success path (no-op handler)", jobs, 0, 0, rep));
                        RawBeside.after(success.get(success.size() - 1), rep);
                    }
                    if (which.equals("growth") && only.contains("growth")) {
                        call("DEL", STAGE);
                        call("COPY", BASE, STAGE);
                        gen(STAGE, jobs - 1, old + waitingRetry);
                        growth.add(drain(s, "cost growth (" + old / 1000 + "k old entries, " + waitingRetry / 1000
                                + "k waiting retries)", jobs, old + waitingRetry, waitingRetry, rep));
                    }
                }
            }
            if (!success.isEmpty() && !growth.isEmpty()) {
                double base = median(success, "jobs_per_s"), grown = median(growth, "jobs_per_s");
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", "cost growth: median throughput change vs success path");
                m.put("jobs", jobs);
                m.put("success_median_jobs_per_s", Math.round(base));
                m.put("growth_median_jobs_per_s", Math.round(grown));
                m.put("change_pct", round1((grown - base) / base * 100));
                emit(m);
            }
            if (only.contains("replay")) {
                replay(s);
            }
        }
    }

    /** Drains a warm-up backlog through the same code, so the timed runs measure compiled code. */
    static void warmUp(Service s, int n) throws Exception {
        log("warm-up: %,d jobs", n);
        call("DEL", STAGE);
        gen(STAGE, n - 1, 0);
        call("XGROUP", "CREATE", STAGE, GROUP, "0", "ENTRIESREAD", "0");
        drain(s, null, n, 0, 0, 0);
    }

    /**
     * Opens the gate on the staged stream (jobs - 1 entries staged, one XADD wakes the reader) and
     * times it from the first read to the moment everything new was read and nothing but
     * {@code stillPending} is pending.
     */
    static Map<String, Object> drain(Service s, String name, int n, long readBefore, long stillPending, int rep)
            throws Exception {
        s.mark();
        double cpu0 = redisCpu();
        call("RENAME", STAGE, STREAM);
        call("XADD", STREAM, "*", "payload", "{\"job\":\"last\"}");
        long[] window = watch(readBefore, readBefore + n, stillPending, Duration.ofSeconds(120), () -> 0L, -1);
        double cpu1 = redisCpu();
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
    static long[] watch(long readBefore, long readTarget, long stillPending, Duration timeout,
            java.util.concurrent.Callable<Long> extra, long extraTarget) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long first = -1;
        while (System.nanoTime() < deadline) {
            long now = System.nanoTime();
            Map<String, Response> g = group();
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
        throw new IllegalStateException("timed out: " + group());
    }

    // ---------------------------------------------------------------------------------------------
    // 2. failure path: every job fails transiently, 3 attempts, no backoff, parked as exhausted

    /** Failing jobs parked before the failure path's timed runs (see {@link #failure}). */
    static final int WARM_UP_FAILURES = 30_000;

    static void failure() throws Exception {
        int n = Math.max(10, jobs / 10);
        call("FLUSHALL");
        call("XGROUP", "CREATE", STREAM, GROUP, "$", "MKSTREAM");
        try (Service s = Service.start("failure", "fail", Map.of("backoff", "0ms", "attempts", "3"))) {
            for (int rep = 0; rep <= Math.min(reps, 2); rep++) {
                // The warm-up (rep 0) is at least as large as a measured run, and large enough that
                // the measured runs find the JIT done: with 10,000 jobs the first measured run still
                // took about half again as much CPU as the second.
                int batchJobs = rep == 0 ? Math.max(n, WARM_UP_FAILURES) : n;
                long dlqBefore = call("XLEN", DLQ).toLong();
                String lastDlqId = lastId(DLQ);
                call("DEL", STAGE);
                gen(STAGE, batchJobs - 1, 0);
                call("XGROUP", "CREATE", STAGE, GROUP, "0", "ENTRIESREAD", "0");
                s.mark();
                double cpu0 = redisCpu();
                call("RENAME", STAGE, STREAM);
                call("XADD", STREAM, "*", "payload", "{\"job\":\"last\"}");
                long[] window = watch(0, batchJobs, 0, Duration.ofSeconds(300),
                        () -> call("XLEN", DLQ).toLong(), dlqBefore + batchJobs);
                double cpu1 = redisCpu();
                if (rep == 0) {
                    log("warm-up: %,d failing jobs parked", batchJobs);
                    continue;
                }
                // Every measured job must be parked once, after exactly 3 attempts.
                Map<String, Long> attempts = new java.util.TreeMap<>();
                String from = "(" + lastDlqId;
                long parked = 0;
                while (true) {
                    Response page = call("XRANGE", DLQ, from, "+", "COUNT", "1000");
                    if (page.size() == 0) {
                        break;
                    }
                    for (Response e : page) {
                        Response f = e.get(1);
                        for (int i = 0; i + 1 < f.size(); i += 2) {
                            if (f.get(i).toString().equals("attempts")) {
                                attempts.merge(f.get(i + 1).toString(), 1L, Long::sum);
                            }
                        }
                        parked++;
                        from = "(" + e.get(0).toString();
                    }
                }
                check(parked == batchJobs && attempts.getOrDefault("3", 0L) == batchJobs,
                        "failure path: %d parked, attempts %s (expected %d, all 3)", parked, attempts, batchJobs);
                report(s, "failure path (always transient, 3 attempts, 0 backoff) into the DLQ", batchJobs, window,
                        cpu1 - cpu0, Map.of("rep", rep, "attempts_per_job", attempts.toString(),
                                "attempts_total", 3L * batchJobs));
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // 3. bulk replay through the operator API (POST /dlq/{dlq}/redrives), when it exists

    static void replay(Service s) throws Exception {
        Map<String, Object> redrive = replayLine(s, "bulk replay (one redrive task) entries/s", Map.of());
        if (redrive != null) {
            rawReplayBeside(Math.max(10, jobs / 2), redrive);
        }
    }

    /** The bulk replay's line (emitted), or null when the API is not there. */
    static Map<String, Object> replayLine(Service s, String name, Map<String, Object> more) throws Exception {
        int n = Math.max(10, jobs / 2);
        String dlq = java.net.URLEncoder.encode(DLQ, StandardCharsets.UTF_8);
        String auth = "Basic " + Base64.getEncoder().encodeToString((BENCH_USER + ":" + BENCH_PASSWORD).getBytes(StandardCharsets.UTF_8));
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> probe = http.send(HttpRequest.newBuilder(URI.create(s.api() + "/dlq/" + dlq + "/redrives/none"))
                .header("Authorization", auth).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (probe.statusCode() == 404 && !probe.body().contains("problem")) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "bulk replay (one redrive task, no rate limit)");
            m.put("jobs", n);
            m.put("not_measured", "API not merged (GET /dlq/" + dlq + "/redrives/... answered 404)");
            emit(m);
            return null;
        }
        // Like every other figure, measured in a warmed-up process: the first redrive of a fresh JVM
        // spends most of its service CPU in the JIT compiling the paths it takes for the first time.
        log("replay: warm-up, %,d dead letters redriven (not recorded)", n);
        seedDeadLetters(n);
        HttpResponse<String> warm = postRedrive(http, s, dlq, auth, 0);
        check(warm.statusCode() == 202, "POST redrives answered %d: %s", warm.statusCode(), warm.body());
        String warmState = jsonField(awaitTask(http, s, dlq, auth, jsonField(warm.body(), "id")), "state");
        check("completed".equals(warmState), "the warm-up redrive ended %s", warmState);
        log("replay: seeding %,d dead letters with dead-letter.lua", n);
        seedDeadLetters(n);
        long dlqBefore = call("XLEN", DLQ).toLong();
        // "No rate limit" is maxPerSecond 0; an API that refuses it (400) is asked for its ceiling
        // instead, and the result says so.
        String note = "maxPerSecond 0 (no limit)";
        s.mark();
        double cpu0 = redisCpu();
        long t0 = System.nanoTime();
        HttpResponse<String> created = postRedrive(http, s, dlq, auth, 0);
        if (created.statusCode() == 400) {
            note = "the API refused maxPerSecond 0 (400: " + created.body().replaceAll("\\s+", " ") + "); ran at 10000, "
                    + "its documented ceiling";
            log("replay: %s", note);
            s.mark();
            cpu0 = redisCpu();
            t0 = System.nanoTime();
            created = postRedrive(http, s, dlq, auth, 10_000);
        }
        check(created.statusCode() == 202, "POST redrives answered %d: %s", created.statusCode(), created.body());
        String task = jsonField(created.body(), "id");
        if (task == null) {
            task = jsonField(created.body(), "task");
        }
        check(task != null, "no task id in %s", created.body());
        String body = awaitTask(http, s, dlq, auth, task);
        String state = String.valueOf(jsonField(body, "state"));
        long t1 = System.nanoTime();
        double cpu1 = redisCpu();
        String movedText = jsonField(body, "moved");
        int moved = movedText == null ? 0 : Integer.parseInt(movedText.trim());
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("state", state);
        extra.put("moved", moved);
        extra.put("asked", n);
        extra.put("rate", note);
        extra.put("dlq_before", dlqBefore);
        extra.put("dlq_after", call("XLEN", DLQ).toLong());
        // entries/s of what moved in the window (all of it, unless the task outlived the 120 s limit)
        extra.putAll(more);
        return report(s, name, Math.max(1, moved), new long[] {t0, t1}, cpu1 - cpu0, extra);
    }

    /**
     * The peers' raw Lua replay (REPLAY_LUA of $PEERS_DIR/streams.js, read from there, not copied)
     * on this Redis right after redrive's, with as many one-field dead letters as the peers give
     * it: the peers' own run comes minutes later, and the box's speed moves more than that in
     * minutes, so the ratio item 5 of issue 12 asks for is taken here as well.
     */
    static void rawReplayBeside(int n, Map<String, Object> redrive) throws Exception {
        Path peers = Path.of(System.getenv().getOrDefault("PEERS_DIR", "/work/shared/bench/peers"), "streams.js");
        java.util.regex.Matcher lua = java.util.regex.Pattern.compile("const REPLAY_LUA = `([^`]*)`")
                .matcher(Files.exists(peers) ? Files.readString(peers) : "");
        if (!lua.find()) {
            log("replay: no REPLAY_LUA in %s; the raw Lua replay is not run beside redrive's", peers);
            return;
        }
        String rawDlq = "{bench}:raw-dlq", target = "{bench}:raw-replayed";
        call("DEL", rawDlq, target);
        // The peers' dead letters: what their dead-letter Lua writes for each job.
        for (int from = 0; from < n; from += 10_000) {
            call("EVAL", "for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do redis.call('XADD', KEYS[1], '*', 'orig', "
                    + "'0-' .. i, 'data', '{\"i\":' .. i .. '}', 'error', 'boom') end", "1", rawDlq,
                    String.valueOf(from), String.valueOf(Math.min(n, from + 10_000) - 1));
        }
        String sha = call("SCRIPT", "LOAD", lua.group(1)).toString();
        double cpu0 = redisCpu();
        long t0 = System.nanoTime();
        long movedRaw = 0;
        for (long k; (k = call("EVALSHA", sha, "2", rawDlq, target, "1000").toLong()) > 0;) {
            movedRaw += k;
        }
        long t1 = System.nanoTime();
        double cpu1 = redisCpu();
        check(movedRaw == n && call("XLEN", target).toLong() == n, "the raw replay moved %d of %d", movedRaw, n);
        double seconds = (t1 - t0) / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "raw Lua replay of the peers (XRANGE+XADD+XDEL per 1000), right after redrive's");
        m.put("jobs", n);
        m.put("seconds", round3(seconds));
        m.put("jobs_per_s", Math.round(n / seconds));
        m.put("redis_cpu_us_per_job", round2((cpu1 - cpu0) * 1e6 / n));
        m.put("redrive_vs_raw_pct", round1(((Number) redrive.get("jobs_per_s")).doubleValue() / (n / seconds) * 100));
        emit(m);
        call("DEL", rawDlq, target);
    }

    /** Polls a redrive until it leaves counting/canary/running (or 120 s pass); its last status. */
    static String awaitTask(HttpClient http, Service s, String dlq, String auth, String task) throws Exception {
        String body = "";
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(120)) {
            body = http.send(HttpRequest.newBuilder(URI.create(s.api() + "/dlq/" + dlq + "/redrives/" + task))
                    .header("Authorization", auth).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
            String state = String.valueOf(jsonField(body, "state"));
            if (!state.equals("counting") && !state.equals("canary") && !state.equals("running")) {
                break;
            }
            // Each poll is an authenticated HTTP request the service answers on the same two cores:
            // every 20 ms keeps the harness's share small and the window exact to 20 ms.
            Thread.sleep(20);
        }
        return body;
    }

    static HttpResponse<String> postRedrive(HttpClient http, Service s, String dlq, String auth, int maxPerSecond)
            throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(s.api() + "/dlq/" + dlq + "/redrives"))
                .header("Authorization", auth).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"filter\":{},\"maxPerSecond\":" + maxPerSecond + "}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Parks n entries with the project's own dead-letter.lua, its record written by the project's
     * DeadLetterRecord and its keys named by RedisKeys (run.sh puts the service's own classes on
     * the class path), so the records are what redrive writes.
     */
    static void seedDeadLetters(int n) throws Exception {
        seedDeadLetters(n, List.of(new Fingerprint("bench0000", "bench: always fails")), List.of("bench handler always fails"));
    }

    /** As above, the i-th entry with the cause {@code causes[i % k]} and its reason. */
    static void seedDeadLetters(int n, List<Fingerprint> causes, List<String> reasons) throws Exception {
        String sha = call("SCRIPT", "LOAD", new LuaScripts().body(LuaScripts.Script.DEAD_LETTER)).toString();
        String origin = "bench-origin";
        call("DEL", origin);
        gen(origin, n, 0);
        call("XGROUP", "CREATE", origin, GROUP, "0");
        Instant now = Instant.now();
        int seeded = 0;
        List<String> keys = List.of(origin, DLQ, RedisKeys.deadLetterStats(DLQ), RedisKeys.notBefore(origin),
                RedisKeys.replayed(DLQ), RedisKeys.replayedAt(DLQ));
        for (int done = 0; done < n; ) {
            Response r = call("XREADGROUP", "GROUP", GROUP, "seed", "COUNT", "1000", "STREAMS", origin, ">");
            List<Request> parks = new ArrayList<>();
            for (Response e : r.get(0).get(1)) {
                String id = e.get(0).toString();
                Fingerprint cause = causes.get(seeded % causes.size());
                String reason = reasons.get(seeded++ % reasons.size());
                Request q = Request.cmd(Command.EVALSHA).arg(sha).arg(keys.size());
                keys.forEach(q::arg);
                // dead-letter.lua's ARGV: group, forget-before, then per job id, kind, fingerprint, its text,
                // the record's length and the record
                q.arg(GROUP).arg("0").arg(id).arg("exhausted").arg(cause.id()).arg(cause.text());
                List<String> record = new DeadLetterRecord(STREAM, id, GROUP, "seed", "bench", "exhausted", "bench",
                        reason, cause, 3, 3, now, now, now).pairs();
                q.arg(record.size());
                record.forEach(q::arg);
                parks.add(q);
            }
            conn.batch(parks).toCompletionStage().toCompletableFuture().get();
            done += parks.size();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // 7. the operator console over a deep dead-letter stream: Overview and Causes read counters,
    //    the Entries page reads one page of a filter (issue 13: < 300 ms, < 300 ms, < 1 s)

    static void console(int n) throws Exception {
        call("FLUSHALL");
        call("XGROUP", "CREATE", STREAM, GROUP, "$", "MKSTREAM");
        // Five causes, one of them rare (1 in 100): the filtered page has to look past many entries.
        List<Fingerprint> causes = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String reason = i == 0 ? "card declined for order " + i
                    : List.of("HTTP 503 from ledger", "timeout after 30000 ms", "field 'sku' missing in doc " + i,
                            "connection refused by 10.0.0." + i).get(i % 4);
            reasons.add(reason);
            causes.add(Fingerprint.of("bench-error", reason));
        }
        log("console: seeding %,d dead letters in %s with dead-letter.lua", n, DLQ);
        seedDeadLetters(n, causes, reasons);
        check(call("XLEN", DLQ).toLong() == n, "seeded %d, want %d", call("XLEN", DLQ).toLong(), n);
        String rare = causes.get(0).id();
        String dlq = java.net.URLEncoder.encode(DLQ, StandardCharsets.UTF_8);
        try (Service s = Service.start("console", "noop", Map.of())) {
            HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
            // The login form's CSRF token: the cookie the login page sets, sent back in the form's query.
            String csrf = http.send(HttpRequest.newBuilder(URI.create(s.api() + "/console/login")).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).headers().allValues("set-cookie").stream()
                    .filter(c -> c.startsWith("redrive-csrf=")).map(c -> c.substring("redrive-csrf=".length(), c.indexOf(';')))
                    .findFirst().orElse("");
            HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(s.api()
                    + "/console/j_security_check?csrf-token=" + csrf))
                    .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", "redrive-csrf=" + csrf)
                    .POST(HttpRequest.BodyPublishers.ofString("j_username=" + BENCH_USER + "&j_password=" + BENCH_PASSWORD))
                    .build(), HttpResponse.BodyHandlers.ofString());
            String cookie = login.headers().allValues("set-cookie").stream().filter(c -> c.startsWith("redrive-console="))
                    .map(c -> c.substring(0, c.indexOf(';'))).findFirst().orElse(null);
            check(cookie != null, "console login answered %d without a session cookie", login.statusCode());
            timePage(http, s, cookie, "console Overview (100,000 dead letters)", "/console", n, 300);
            timePage(http, s, cookie, "console Causes (100,000 dead letters)", "/console/dlq/" + dlq + "/causes", n, 300);
            timePage(http, s, cookie, "console Entries filtered to a 1% cause (100,000 dead letters)",
                    "/console/dlq/" + dlq + "/entries?fingerprint=" + rare + "&text=declined", n, 1000);
        }
    }

    /** 20 warm-up requests, then 50 timed ones, one after the other; a JSON line of their times. */
    static void timePage(HttpClient http, Service s, String cookie, String name, String path, int n, int targetMs)
            throws Exception {
        HttpRequest get = HttpRequest.newBuilder(URI.create(s.api() + path)).header("Cookie", cookie).GET().build();
        List<Double> ms = new ArrayList<>();
        int bytes = 0;
        for (int i = 0; i < 70; i++) {
            long t0 = System.nanoTime();
            HttpResponse<String> r = http.send(get, HttpResponse.BodyHandlers.ofString());
            double took = (System.nanoTime() - t0) / 1e6;
            check(r.statusCode() == 200, "%s answered %d: %s", path, r.statusCode(), r.body());
            bytes = r.body().length();
            if (i >= 20) {
                ms.add(took);
            }
        }
        ms.sort(null);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("dead_letters", n);
        m.put("path", path);
        m.put("requests", ms.size());
        m.put("p50_ms", round1(ms.get(ms.size() / 2)));
        m.put("p95_ms", round1(ms.get((int) Math.ceil(ms.size() * 0.95) - 1)));
        m.put("max_ms", round1(ms.get(ms.size() - 1)));
        m.put("target_ms", targetMs);
        m.put("met", ms.get((int) Math.ceil(ms.size() * 0.95) - 1) < targetMs);
        m.put("page_chars", bytes);
        emit(m);
    }

    // ---------------------------------------------------------------------------------------------
    // 4. latency: an independent producer offers `rate` jobs/s; the handler records XADD -> start

    static void latency(int rate, int seconds) throws Exception {
        call("FLUSHALL");
        call("XGROUP", "CREATE", STREAM, GROUP, "$", "MKSTREAM");
        try (Service s = Service.start("latency", "latency", Map.of("backoff", "10m", "attempts", "3"))) {
            RedisConnection producer = Redis.createClient(vertx, new RedisOptions()
                    .setConnectionString("redis://127.0.0.1:" + redisPort).setPreferredProtocolVersion(ProtocolVersion.RESP2)
                    .setMaxWaitingHandlers(1_000_000)).connect().toCompletionStage().toCompletableFuture().get();
            log("latency: warm-up, %d jobs/s for 5 s (not recorded)", rate);
            produce(producer, rate, 5, false);
            waitIdle(Duration.ofSeconds(30));
            log("latency: %d jobs/s for %d s", rate, seconds);
            Waits waits = Waits.of(s);
            s.mark();
            double cpu0 = redisCpu();
            long t0 = System.nanoTime();
            long sent = produce(producer, rate, seconds, true);
            waitIdle(Duration.ofSeconds(60));
            Map<String, Object> where = Waits.of(s).since(waits, s, sent);
            long t1 = System.nanoTime();
            double cpu1 = redisCpu();
            String metrics = s.metrics();
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("offered_per_s", Math.round(sent / (double) seconds));
            for (String q : new String[] {"0.5", "0.99", "0.999"}) {
                Double v = metric(metrics, "redrive_bench_start_delay_seconds{quantile=\"" + q + "\"");
                extra.put("p" + q.substring(2) + (q.equals("0.5") ? "0" : "") + "_ms", v == null ? null : round2(v * 1000));
            }
            Double max = metric(metrics, "redrive_bench_start_delay_seconds_max");
            extra.put("max_ms", max == null ? null : round2(max * 1000));
            extra.put("recorded", metric(metrics, "redrive_bench_start_delay_seconds_count"));
            extra.putAll(where);
            report(s, "latency at " + rate + " jobs/s for " + seconds + " s (XADD to handler start)", (int) sent,
                    new long[] {t0, t1}, cpu1 - cpu0, extra);
            producer.close();
        }
    }

    /** XADDs at a steady `rate`, a few each millisecond, each stamped with its send time in epoch µs. */
    static long produce(RedisConnection producer, int rate, int seconds, boolean stamped) throws Exception {
        AtomicLong sent = new AtomicLong();
        long total = (long) rate * seconds;
        CompletableFuture<Void> done = new CompletableFuture<>();
        long start = System.nanoTime();
        long timer = vertx.setPeriodic(1, t -> {
            long due = Math.min(total, (System.nanoTime() - start) * rate / 1_000_000_000L);
            while (sent.get() < due) {
                Instant now = Instant.now();
                long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
                producer.send(Request.cmd(Command.XADD).arg(STREAM).arg("*").arg(stamped ? "sent-at-us" : "warm-up")
                        .arg(Long.toString(micros)).arg("payload").arg("{\"job\":" + sent.get() + "}"));
                sent.incrementAndGet();
            }
            if (sent.get() >= total) {
                done.complete(null);
            }
        });
        done.get(seconds + 60L, TimeUnit.SECONDS);
        vertx.cancelTimer(timer);
        return sent.get();
    }

    static void waitIdle(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Response> g = group();
            if (g.get("pending").toLong() == 0 && g.get("lag") != null && g.get("lag").toLong() == 0) {
                return;
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("not idle: " + group());
    }

    // 7. tracing cost: Traced.java

    static long occurrences(byte[] haystack, byte[] needle) {
        long n = 0;
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            n++;
        }
        return n;
    }

    // ---------------------------------------------------------------------------------------------
    // 6. the success path with the HTTP handler against a local no-op HTTP server

    /**
     * Calls before the HTTP handler's and the HTTP ceiling's timed runs, the same for both: with
     * 20,000 the first timed run of each still took about twice the CPU per call of the second
     * (the JIT was not done), so the medians mixed a cold run with a warm one.
     */
    static final int HTTP_WARM_UP = 60_000;

    /** @param withCeiling the HTTP ceiling's reps interleaved with the handler's (Scale.Ceiling) */
    static void http(boolean withCeiling) throws Exception {
        int n = Math.max(10, jobs / 4);
        HttpServer server = noopServer();
        call("FLUSHALL");
        call("XGROUP", "CREATE", STREAM, GROUP, "$", "MKSTREAM");
        // Concurrency 200, not the bench's default: the outbound client lets 64 calls run at once
        // (http.bulkhead) and queues the rest; far more jobs than that would only wait in its queue.
        try (Service s = Service.start("http", "http", Map.of("backoff", "10m", "attempts", "3", "concurrency", "200",
                "http.url", "http://127.0.0.1:" + server.actualPort() + "/jobs"));
                Scale.Ceiling ceiling = withCeiling ? Scale.Ceiling.start(server.actualPort(), n, HTTP_WARM_UP) : null) {
            warmUp(s, HTTP_WARM_UP);
            for (int rep = 1; rep <= reps; rep++) {
                call("DEL", STAGE);
                gen(STAGE, n - 1, 0);
                call("XGROUP", "CREATE", STAGE, GROUP, "0", "ENTRIESREAD", "0");
                drain(s, "HTTP handler against a local no-op server", n, 0, 0, rep);
                if (ceiling != null) {
                    ceiling.rep(rep);
                }
            }
            if (ceiling != null) {
                Scale.compareHttp(ceiling.results);
            }
        } finally {
            server.close();
        }
    }

    /** The no-op downstream: 204 after reading the body. */
    static HttpServer noopServer() throws Exception {
        return vertx.createHttpServer()
                .requestHandler(req -> req.body().onComplete(body -> req.response().setStatusCode(204).end()))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
    }

    // ---------------------------------------------------------------------------------------------
    // the service under test

    static final class Service implements AutoCloseable {
        final Process process;
        final int httpPort, managementPort;
        final Path log;
        double cpuMark;

        /** Marks the start of a window for the service CPU per job (read from /proc, 10 ms ticks). */
        void mark() throws Exception {
            cpuMark = cpuSeconds();
            call("CONFIG", "RESETSTAT");
        }

        Service(Process process, int httpPort, int managementPort, Path log) {
            this.process = process;
            this.httpPort = httpPort;
            this.managementPort = managementPort;
            this.log = log;
        }

        static Service start(String tag, String handler, Map<String, String> queue) throws Exception {
            return start(tag, handler, queue, List.of());
        }

        /**
         * {@code jvmArgs}: more options for the service's JVM (e.g. -D properties of more queues, the
         * OTLP endpoint that turns tracing on).
         */
        static Service start(String tag, String handler, Map<String, String> queue, List<String> jvmArgs)
                throws Exception {
            int httpPort = freePort(), managementPort = freePort();
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            for (String o : javaOpts.trim().split("\\s+")) {
                if (!o.isEmpty()) {
                    cmd.add(o.replace("{tag}", tag));
                }
            }
            String q = "-Dredrive.queues." + STREAM + ".";
            cmd.addAll(List.of(
                    "-Dquarkus.redis.hosts=redis://127.0.0.1:" + redisPort,
                    "-Dquarkus.http.port=" + httpPort,
                    "-Dquarkus.management.port=" + managementPort,
                    q + "handler=" + handler,
                    q + "concurrency=" + concurrency,
                    q + "batch=" + batch,
                    // the operator API's Basic user (used once the API is merged)
                    "-Dquarkus.security.users.embedded.users." + BENCH_USER + "=" + digest(),
                    "-Dquarkus.security.users.embedded.roles." + BENCH_USER + "=dlq-operator"));
            queue.forEach((k, v) -> cmd.add(q + k + "=" + v));
            // BENCH_QUEUE_OPTS="retry-poll=10ms,concurrency=400": extra or overriding queue properties
            for (String kv : System.getenv().getOrDefault("BENCH_QUEUE_OPTS", "").split(",")) {
                if (kv.contains("=")) {
                    cmd.add(q + kv.trim());
                }
            }
            cmd.addAll(jvmArgs);
            cmd.addAll(List.of("-jar", jar.toString()));
            Path log = out.resolve("service-" + tag + ".log");
            Files.writeString(out.resolve("service-" + tag + ".cmd"), String.join(" ", cmd) + "\n");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Service s = new Service(p, httpPort, managementPort, log);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < deadline) {
                check(p.isAlive(), "service %s exited; see %s", tag, log);
                if (call("CLIENT", "LIST").toString().contains("cmd=xreadgroup")) {
                    log("service %s: pid %d, reading (log %s)", tag, p.pid(), log);
                    return s;
                }
                Thread.sleep(50);
            }
            s.close();
            throw new IllegalStateException("service " + tag + " did not start reading; see " + log);
        }

        String api() {
            return "http://127.0.0.1:" + httpPort;
        }

        String metrics() throws Exception {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        }

        /** Peak resident set size so far (VmHWM), in MB. */
        double peakRssMb() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return round1(Long.parseLong(line.replaceAll("\\D", "")) / 1024.0);
                }
            }
            return -1;
        }

        double cpuSeconds() throws IOException {
            String[] f = Files.readString(Path.of("/proc/" + process.pid() + "/stat")).replaceFirst("^.*\\) ", "").split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime + stime in clock ticks
        }

        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(40, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static String digest() throws Exception {
        byte[] d = MessageDigest.getInstance("SHA-256")
                .digest((BENCH_USER + ":redrive:" + BENCH_PASSWORD).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(d);
    }

    // ---------------------------------------------------------------------------------------------
    // reporting

    static final Map<Service, double[]> lastCpu = new java.util.HashMap<>();

    static Map<String, Object> report(Service s, String name, int n, long[] window, double redisCpuS,
            Map<String, Object> extra) throws Exception {
        double seconds = (window[1] - window[0]) / 1e9;
        double serviceCpuS = s.cpuSeconds() - s.cpuMark;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("jobs", n);
        m.put("seconds", round3(seconds));
        m.put("jobs_per_s", Math.round(n / seconds));
        m.put("redis_cpu_us_per_job", round2(redisCpuS * 1e6 / n));
        m.put("service_rss_peak_mb", s.peakRssMb());
        m.put("service_cpu_us_per_job", round2(serviceCpuS * 1e6 / n));
        m.put("redis_top_commands", topCommands(name, extra.get("rep"), n));
        m.putAll(extra);
        emit(m);
        return m;
    }

    /**
     * Where Redis spent its time in the window (INFO commandstats, reset at the window's start;
     * commands run inside scripts count under their own names too): the top five as
     * "command calls µs/job", and the whole table in commandstats-*.txt.
     */
    static String topCommands(String name, Object rep, int n) throws Exception {
        String stats = call("INFO", "commandstats").toString();
        Files.writeString(out.resolve("commandstats-" + name.replaceAll("[^a-zA-Z0-9]+", "-") + "-" + rep + ".txt"), stats);
        Pattern p = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)");
        List<String[]> rows = new ArrayList<>();
        for (String line : stats.split("\r?\n")) {
            Matcher m = p.matcher(line);
            if (m.find()) {
                rows.add(new String[] {m.group(1), m.group(2), m.group(3)});
            }
        }
        rows.sort((x, y) -> Long.compare(Long.parseLong(y[2]), Long.parseLong(x[2])));
        StringBuilder b = new StringBuilder();
        for (String[] r : rows.subList(0, Math.min(5, rows.size()))) {
            b.append(b.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT, "%s %s calls %.2fus/job", r[0],
                    r[1], Long.parseLong(r[2]) / (double) n));
        }
        return b.toString();
    }

    static void emit(Map<String, Object> m) {
        results.add(m);
        System.out.println("RESULT " + json(m));
        System.out.flush();
    }

    static String json(Map<String, Object> m) {
        StringBuilder b = new StringBuilder("{");
        m.forEach((k, v) -> {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append('"').append(k).append("\":");
            if (v == null) {
                b.append("null");
            } else if (v instanceof Number || v instanceof Boolean) {
                b.append(v);
            } else {
                b.append('"').append(v.toString().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            }
        });
        return b.append('}').toString();
    }

    static String jsonField(String body, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*\"?([^\",}]*)").matcher(body);
        return m.find() ? m.group(1) : null;
    }

    static Double metric(String text, String prefix) {
        for (String line : text.split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    static double median(List<Map<String, Object>> runs, String key) {
        double[] v = runs.stream().mapToDouble(r -> ((Number) r.get(key)).doubleValue()).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    // ---------------------------------------------------------------------------------------------
    // Redis helpers

    static Response call(String... args) throws Exception {
        Request r = Request.cmd(Command.create(args[0]));
        for (int i = 1; i < args.length; i++) {
            r.arg(args[i]);
        }
        return conn.send(r).toCompletionStage().toCompletableFuture().get(300, TimeUnit.SECONDS);
    }

    /** Adds n entries server-side (a Lua loop in chunks), so staging costs no network round trips. */
    static void gen(String key, int n, long from) throws Exception {
        for (int done = 0; done < n; done += 20_000) {
            int chunk = Math.min(20_000, n - done);
            call("EVAL", GEN, "1", key, String.valueOf(chunk), String.valueOf(from + done));
        }
    }

    static Map<String, Response> group() throws Exception {
        return group(STREAM);
    }

    static Map<String, Response> group(String stream) throws Exception {
        for (Response g : call("XINFO", "GROUPS", stream)) {
            Map<String, Response> m = new LinkedHashMap<>();
            for (int i = 0; i + 1 < g.size(); i += 2) {
                m.put(g.get(i).toString(), g.get(i + 1));
            }
            if (GROUP.equals(m.get("name").toString())) {
                return m;
            }
        }
        throw new IllegalStateException("no group " + GROUP + " on " + stream);
    }

    static String lastId(String key) throws Exception {
        Response r = call("XREVRANGE", key, "+", "-", "COUNT", "1");
        return r.size() == 0 ? "0-0" : r.get(0).get(0).toString();
    }

    static double redisCpu() throws Exception {
        double s = 0;
        for (String line : call("INFO", "cpu").toString().split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                s += Double.parseDouble(line.split(":")[1].trim());
            }
        }
        return s;
    }

    static int freePort() throws IOException {
        try (var socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    static void check(boolean ok, String format, Object... args) {
        if (!ok) {
            throw new IllegalStateException(String.format(Locale.ROOT, format, args));
        }
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[%tT] %s%n", System.currentTimeMillis(), String.format(Locale.ROOT, format, args));
    }

    static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    static double round2(double v) {
        return Math.round(v * 100) / 100.0;
    }

    static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
