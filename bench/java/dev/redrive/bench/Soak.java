package dev.redrive.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
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
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.redrive.testing.JobLedger;

/**
 * redrive's soak (issue 10): several packaged service processes on one queue against a private
 * redis-server with AOF, a producer at a steady rate, a downstream that flaps, and an operator
 * replaying and redriving what is parked, while service processes are killed with SIGKILL and
 * Redis is paused (SIGSTOP/SIGCONT) and killed and restarted from its AOF. At the end it drains and
 * checks every job ever produced with the tests' own invariant check (dev.redrive.testing.JobLedger,
 * so bench/soak.sh runs this with target/test-classes on the class path), and exits 0 when every
 * invariant holds, 1 when one does not. The producer trims the stream as producers do
 * ({@code XADD ... MAXLEN ~ <maxlen>}), and the downstream is sometimes hostile (huge bodies,
 * absurd Retry-After values). bench/soak.sh runs it; bench/README.md ("Soak") says what it checks.
 * <p>
 * Only the JDK: a small blocking RESP client, the JDK's HTTP server and client.
 */
public class Soak {

    static final String STREAM = "soak";
    static final String GROUP = "redrive";
    static final String DLQ = "{soak}:dlq";
    static final String AUDIT = "{soak}:dlq:audit";
    static final String USER = "soak";
    static final String PASSWORD = "soak-secret";
    static final Duration HTTP_TIMEOUT = Duration.ofSeconds(3);

    static int minutes, services, rate, maxlen, redisPort;
    /** Every life and its outcome: what the producer added, what the downstream answered, what Redis parked and replayed. */
    static final JobLedger ledger = new JobLedger();
    static Path jar, out;
    static volatile boolean running = true;
    static final Counts faults = new Counts();
    static final Counts operator = new Counts();
    static final long started = System.nanoTime();

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        minutes = Integer.parseInt(a.getOrDefault("minutes", "20"));
        services = Integer.parseInt(a.getOrDefault("services", "3"));
        rate = Integer.parseInt(a.getOrDefault("rate", "40"));
        maxlen = Integer.parseInt(a.getOrDefault("maxlen", "5000"));
        jar = Path.of(a.getOrDefault("jar", "target/quarkus-app/quarkus-run.jar"));
        out = Path.of(a.getOrDefault("out", "bench/results/soak"));
        Files.createDirectories(out);
        // Ctrl-C or SIGTERM: take redis-server and the services down with the soak.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants().forEach(p -> {
            p.destroyForcibly();
        })));
        log("soak: %d min, %d services, %d jobs/s, stream trimmed to ~%d, results in %s", minutes, services, rate, maxlen, out);

        RedisProcess redis = new RedisProcess(freePort(), out.resolve("redis"));
        redisPort = redis.port;
        Downstream downstream = new Downstream();
        List<Service> fleet = new ArrayList<>();
        boolean pass = false;
        try {
            redis.start();
            for (int i = 0; i < services; i++) {
                fleet.add(new Service(i, downstream.port));
            }
            for (Service s : fleet) {
                s.start();
            }
            for (Service s : fleet) {
                s.awaitReady(Duration.ofSeconds(120));
            }
            Producer producer = new Producer();
            List<Thread> threads = List.of(
                    thread("producer", producer::run),
                    thread("downstream-flaps", downstream::flap),
                    thread("service-kills", () -> killServices(fleet)),
                    thread("redis-faults", () -> redisFaults(redis)),
                    thread("operator", () -> operate(fleet)));
            long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
            while (System.nanoTime() < end) {
                Thread.sleep(10_000);
                log("%s; produced %d, downstream calls %d (%d hostile); faults %s", elapsed(), producer.produced.get(),
                        downstream.calls.get(), downstream.hostile.get(), faults);
            }
            running = false;
            for (Thread t : threads) {
                t.join(60_000);
            }
            log("stopping faults: Redis and every service up, downstream healthy; draining");
            redis.ensureUp();
            downstream.mode = Mode.HEALTHY;
            for (Service s : fleet) {
                s.ensureUp();
            }
            pass = drainAndCheck(producer, downstream);
        } finally {
            running = false;
            for (Service s : fleet) {
                s.stop();
            }
            downstream.stop();
            redis.stop();
        }
        System.exit(pass ? 0 : 1);
    }

    // ---------------------------------------------------------------------------------------------
    // The producer: a steady rate, a unique soak-id per job, a kind that says how the downstream treats it

    static final class Producer {
        /** Jobs Redis acknowledged (each is in the ledger with the entry id XADD answered). */
        final AtomicLong produced = new AtomicLong();
        final AtomicLong next = new AtomicLong();

        void run() {
            // A long timeout: a paused Redis answers after SIGCONT. A retried XADD that had landed
            // adds a life the ledger was never told of: reported as unacknowledged, not lost.
            // MAXLEN ~: the producers' common idiom; a job trimmed before it finished must be
            // parked as missing, never vanish.
            Resp r = new Resp(redisPort, 30_000);
            long tick = 100;
            double perTick = rate * tick / 1000.0, owed = 0;
            long pending = -1;
            while (running) {
                long t0 = System.nanoTime();
                owed += perTick;
                while (owed >= 1 && running) {
                    long id = pending >= 0 ? pending : next.getAndIncrement();
                    pending = id;
                    String kind = kind(id);
                    try {
                        Object entry = r.call("XADD", STREAM, "MAXLEN", "~", Integer.toString(maxlen), "*", "soak-id",
                                Long.toString(id), "kind", kind, "payload", "{\"soak\":" + id + ",\"kind\":\"" + kind + "\"}");
                        ledger.produced(Long.toString(id), (String) entry);
                        produced.incrementAndGet();
                        pending = -1;
                        owed--;
                    } catch (IOException e) {
                        sleep(500); // Redis is away: try the same job again
                        break;
                    }
                }
                sleep(Math.max(0, tick - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)));
            }
            r.close();
        }

        /** ok 85%; flaky (its first attempt fails) 8%; poison (every attempt of its first life fails) 4%; terminal 3%. */
        static String kind(long id) {
            int p = new Random(id * 0x9E3779B97F4A7C15L).nextInt(100);
            return p < 85 ? "ok" : p < 93 ? "flaky" : p < 97 ? "poison" : "terminal";
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The downstream: counts each 2xx it answers per entry (a life), and flaps between modes

    enum Mode { HEALTHY, NORMAL, SLOW, TIMEOUTS, ERRORS, OUTAGE, HOSTILE }

    static final class Downstream {
        static final Pattern SOAK = Pattern.compile("\"soak\":(\\d+),\"kind\":\"(\\w+)\"");
        final HttpServer server;
        final int port;
        volatile Mode mode = Mode.NORMAL;
        final AtomicLong calls = new AtomicLong();
        /** Answers with a huge body or an absurd Retry-After. */
        final AtomicLong hostile = new AtomicLong();
        /** The first entry id seen per soak-id: poison and terminal jobs fail only in that life. */
        final Map<Long, String> firstLife = new ConcurrentHashMap<>();

        Downstream() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/job", this::handle);
            server.start();
            port = server.getAddress().getPort();
        }

        void handle(HttpExchange x) throws IOException {
            calls.incrementAndGet();
            String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String jobId = x.getRequestHeaders().getFirst("Redrive-Job-Id");
            String entry = jobId == null ? "" : jobId.substring(jobId.indexOf('/') + 1);
            int attempt = Integer.parseInt(x.getRequestHeaders().getFirst("Redrive-Attempt"));
            Matcher m = SOAK.matcher(body);
            if (!m.find()) {
                answer(x, 400);
                return;
            }
            long soak = Long.parseLong(m.group(1));
            String kind = m.group(2);
            boolean first = firstLife.computeIfAbsent(soak, k -> entry).equals(entry);
            ledger.attempted(entry);
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            Mode now = mode;
            // Hostile now and then in normal times, often in a hostile window: never a 2xx, so the
            // ledger need not guess whether redrive took a cut-off reply for a success.
            if (now != Mode.HEALTHY && rnd.nextInt(100) < (now == Mode.HOSTILE ? 30 : 1)) {
                hostile.incrementAndGet();
                if (rnd.nextBoolean()) {
                    hugeBody(x);
                } else {
                    absurdRetryAfter(x, rnd);
                }
                return;
            }
            switch (now) {
                case OUTAGE -> {
                    answer(x, 503);
                    return;
                }
                case ERRORS -> {
                    if (rnd.nextInt(100) < 40) {
                        answer(x, rnd.nextBoolean() ? 500 : 503);
                        return;
                    }
                }
                case TIMEOUTS -> {
                    if (rnd.nextInt(100) < 30) {
                        // Past the service's timeout, then an error: a late 2xx would be a success the
                        // service never saw, which no invariant could account for.
                        sleep(HTTP_TIMEOUT.toMillis() + 1500);
                        answer(x, 504);
                        return;
                    }
                }
                case SLOW -> sleep(200 + rnd.nextInt(1000));
                case NORMAL -> {
                    if (rnd.nextInt(100) < 3) {
                        answer(x, 500);
                        return;
                    }
                }
                case HEALTHY, HOSTILE -> { }
            }
            if (first && kind.equals("poison")) {
                // While draining, a 422 parks it at once: its retries would otherwise be the circuit's
                // probes one after the other, each failing and keeping the circuit open (README).
                answer(x, now == Mode.HEALTHY ? 422 : 500);
                return;
            }
            if (kind.equals("flaky") && attempt == 1) {
                answer(x, 500);
                return;
            }
            if (first && kind.equals("terminal")) {
                answer(x, 422);
                return;
            }
            ledger.succeeded(entry);
            answer(x, 200);
        }

        /** A 500 that says its body is 1 GiB and streams it until the service hangs up (or 64 MiB are sent). */
        static void hugeBody(HttpExchange x) throws IOException {
            x.sendResponseHeaders(500, 1L << 30);
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'x');
            try (OutputStream body = x.getResponseBody()) {
                for (int i = 0; i < 1024; i++) {
                    body.write(chunk);
                }
            } catch (IOException e) {
                // the service stopped reading: what it should do
            } finally {
                x.close();
            }
        }

        /** A 429 or 503 whose Retry-After is decades away, past a long's milliseconds, or a date in 2099. */
        static void absurdRetryAfter(HttpExchange x, ThreadLocalRandom rnd) throws IOException {
            String[] hints = {"31536000000", "9223372036854775807", "Wed, 21 Oct 2099 07:28:00 GMT"};
            x.getResponseHeaders().add("Retry-After", hints[rnd.nextInt(hints.length)]);
            answer(x, rnd.nextBoolean() ? 429 : 503);
        }

        static void answer(HttpExchange x, int status) throws IOException {
            x.sendResponseHeaders(status, -1);
            x.close();
        }

        /** A new mode every 10-35 s: normal between each of slow, hostile, timeouts, errors and outage, in turn. */
        void flap() {
            Mode[] cycle = {Mode.NORMAL, Mode.SLOW, Mode.NORMAL, Mode.HOSTILE, Mode.NORMAL, Mode.TIMEOUTS, Mode.NORMAL,
                    Mode.ERRORS, Mode.NORMAL, Mode.OUTAGE};
            for (int i = 0; running; i++) {
                Mode next = cycle[i % cycle.length];
                if (next != Mode.NORMAL) {
                    faults.add("downstream " + next.name().toLowerCase());
                }
                mode = next;
                sleepWhileRunning(10_000 + ThreadLocalRandom.current().nextInt(25_000));
            }
        }

        void stop() {
            server.stop(0);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Faults

    static void killServices(List<Service> fleet) {
        sleepWhileRunning(20_000);
        while (running) {
            Service s = fleet.get(ThreadLocalRandom.current().nextInt(fleet.size()));
            s.kill();
            faults.add("service kill -9");
            sleepWhileRunning(2_000 + ThreadLocalRandom.current().nextInt(5_000));
            s.startQuietly();
            sleepWhileRunning(25_000 + ThreadLocalRandom.current().nextInt(30_000));
        }
    }

    /** A pause at a sixth of the run and every third after; a kill and restart from the AOF at each half. */
    static void redisFaults(RedisProcess redis) {
        long total = TimeUnit.MINUTES.toMillis(minutes);
        long t0 = System.currentTimeMillis();
        List<long[]> plan = new ArrayList<>(); // {at ms, 0 = pause, 1 = restart}
        for (long at = total / 6; at < total - 20_000; at += total / 3) {
            plan.add(new long[] {at, 0});
        }
        for (long at = total / 3; at < total - 20_000; at += total / 2) {
            plan.add(new long[] {at, 1});
        }
        plan.sort((x, y) -> Long.compare(x[0], y[0]));
        for (long[] step : plan) {
            sleepWhileRunning(Math.max(0, t0 + step[0] - System.currentTimeMillis()));
            if (!running) {
                return;
            }
            if (step[1] == 0) {
                long pause = 4_000 + ThreadLocalRandom.current().nextInt(5_000);
                log("fault: Redis SIGSTOP for %d ms", pause);
                faults.add("redis SIGSTOP/SIGCONT");
                redis.signal("STOP");
                sleep(pause);
                redis.signal("CONT");
            } else {
                log("fault: Redis kill -9, restart from its AOF");
                faults.add("redis kill -9 + restart");
                redis.kill();
                sleep(2_000);
                try {
                    redis.start();
                } catch (IOException e) {
                    log("Redis did not come back: %s", e.getMessage());
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The operator: lists what is parked, replays some one by one, and starts a redrive now and then

    static void operate(List<Service> fleet) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        String auth = "Basic " + java.util.Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        String dlq = URLEncoder.encode(DLQ, StandardCharsets.UTF_8);
        Pattern ids = Pattern.compile("\"id\"\\s*:\\s*\"(\\d+-\\d+)\"");
        long lastRedrive = System.nanoTime();
        sleepWhileRunning(15_000);
        while (running) {
            Service s = fleet.get(ThreadLocalRandom.current().nextInt(fleet.size()));
            String base = "http://127.0.0.1:" + s.httpPort + "/dlq/" + dlq;
            try {
                if (System.nanoTime() - lastRedrive > TimeUnit.SECONDS.toNanos(60)) {
                    lastRedrive = System.nanoTime();
                    int status = send(http, HttpRequest.newBuilder(URI.create(base + "/redrives")).header("Authorization", auth)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"filter\":{\"origin\":\"soak\"},\"maxPerSecond\":50,\"note\":\"soak redrive\"}")));
                    operator.add("redrive " + status);
                } else {
                    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/entries?count=20&order=oldest"))
                            .header("Authorization", auth).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                    operator.add("list " + page.statusCode());
                    Matcher m = ids.matcher(page.statusCode() == 200 ? page.body() : "");
                    for (int n = 0; n < 5 && m.find(); n++) {
                        int status = send(http, HttpRequest.newBuilder(URI.create(base + "/entries/" + m.group(1) + "/replay"))
                                .header("Authorization", auth).header("Content-Type", "application/json")
                                .header("Idempotency-Key", UUID.randomUUID().toString())
                                .POST(HttpRequest.BodyPublishers.ofString("{\"note\":\"soak replay\"}")));
                        operator.add("replay " + status);
                    }
                }
            } catch (IOException e) {
                operator.add("unreachable (service down or Redis paused)");
            } catch (InterruptedException e) {
                return;
            }
            sleepWhileRunning(5_000);
        }
    }

    static int send(HttpClient http, HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    // ---------------------------------------------------------------------------------------------
    // Drain and check

    static boolean drainAndCheck(Producer producer, Downstream downstream) throws Exception {
        Resp r = new Resp(redisPort, 10_000);
        String last = "";
        int stable = 0, polls = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (stable < 10) {
            if (System.nanoTime() > deadline) {
                log("not drained after 5 minutes: %s", last);
                break;
            }
            Thread.sleep(1000);
            if (++polls % 30 == 0) {
                log("draining: %s", last);
            }
            String now;
            try {
                now = "pending " + pending(r) + ", lag " + lag(r) + ", stream " + r.call("XLEN", STREAM) + ", dlq " + r.call("XLEN", DLQ);
            } catch (IOException e) {
                now = "redis: " + e.getMessage();
            }
            stable = now.equals(last) && now.startsWith("pending 0, lag 0,") ? stable + 1 : 0;
            last = now;
        }
        log("drained: %s", last);

        // Every park and replay since the start: the dead-letter stream, and its audit trail.
        ledger.readDeadLetters(r::call, DLQ, AUDIT);
        long pel = pending(r);
        long parkedNow = (Long) r.call("XLEN", DLQ);
        long streamNow = (Long) r.call("XLEN", STREAM);
        r.close();
        JobLedger.Report report = ledger.check();

        StringBuilder s = new StringBuilder();
        s.append(String.format("soak: %d min, %d service processes (-Xmx128m), %d jobs/s, producer MAXLEN ~ %d%n",
                minutes, services, rate, maxlen));
        s.append(String.format("jobs produced (acknowledged): %d; stream holds %d now (trimmed), %d parked now%n",
                producer.produced.get(), streamNow, parkedNow));
        s.append(String.format("downstream calls: %d (%d hostile: huge bodies, absurd Retry-After)%n",
                downstream.calls.get(), downstream.hostile.get()));
        s.append(String.format("faults injected: %s%n", faults));
        s.append(String.format("operator calls: %s%n", operator));
        s.append(String.format("PEL after drain: %d%n", pel));
        s.append(report);
        boolean pass = pel == 0 && last.startsWith("pending 0, lag 0,") && report.clean();
        s.append("soak verdict: ").append(pass ? "PASS" : "FAIL").append('\n');
        System.out.print(s);
        Files.writeString(out.resolve("summary.txt"), s.toString());
        return pass;
    }

    static long pending(Resp r) throws IOException {
        List<?> summary = (List<?>) r.call("XPENDING", STREAM, GROUP);
        return (Long) summary.get(0);
    }

    /** Entries not yet read by the group; when Redis can't tell (lag nil), whether the last one was delivered. */
    static long lag(Resp r) throws IOException {
        for (Object g : (List<?>) r.call("XINFO", "GROUPS", STREAM)) {
            Map<String, Object> info = pairs((List<?>) g);
            if (GROUP.equals(info.get("name"))) {
                if (info.get("lag") instanceof Long l) {
                    return l;
                }
                Object last = pairs((List<?>) r.call("XINFO", "STREAM", STREAM)).get("last-generated-id");
                return String.valueOf(last).equals(info.get("last-delivered-id")) ? 0 : 1;
            }
        }
        return -1;
    }

    static Map<String, Object> pairs(List<?> flat) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            m.put(String.valueOf(flat.get(i)), flat.get(i + 1));
        }
        return m;
    }

    // ---------------------------------------------------------------------------------------------
    // Processes

    static final class RedisProcess {
        final int port;
        final Path dir;
        Process process;

        RedisProcess(int port, Path dir) {
            this.port = port;
            this.dir = dir;
        }

        synchronized void start() throws IOException {
            Files.createDirectories(dir);
            process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", dir.toString(),
                    "--daemonize", "no").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile())).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try (Resp r = new Resp(port, 1000)) {
                    if ("PONG".equals(r.call("PING"))) {
                        return;
                    }
                } catch (IOException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IOException("redis-server did not come up; see " + dir.resolve("redis.log"));
                    }
                    sleep(100);
                }
            }
        }

        synchronized void signal(String name) {
            try {
                new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        synchronized void kill() {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        synchronized void ensureUp() throws IOException {
            if (process.isAlive()) {
                signal("CONT");
            } else {
                start();
            }
        }

        synchronized void stop() {
            if (process != null && process.isAlive()) {
                signal("CONT");
                process.destroy();
            }
        }
    }

    static final class Service {
        final int index, httpPort = freePort(), managementPort = freePort();
        final List<String> cmd = new ArrayList<>();
        final Path log;
        Process process;

        Service(int index, int downstreamPort) {
            this.index = index;
            this.log = out.resolve("service-" + index + ".log");
            String q = "-Dredrive.queues." + STREAM + ".";
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                    "-Dquarkus.redis.hosts=redis://127.0.0.1:" + redisPort,
                    "-Dquarkus.http.port=" + httpPort, "-Dquarkus.management.port=" + managementPort,
                    q + "handler=http", q + "http.url=http://127.0.0.1:" + downstreamPort + "/job",
                    q + "http.timeout=" + HTTP_TIMEOUT.toMillis() + "ms", q + "attempts=4", q + "backoff=200ms",
                    q + "max-backoff=2s", q + "max-retry-after=5s", q + "concurrency=32", q + "visibility-timeout=20s",
                    "-Dredrive.shutdown-timeout=5s", "-jar", jar.toString()));
        }

        synchronized void start() throws IOException {
            ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            // Operator users the way a Kubernetes Secret gives them: environment variables with a hash.
            b.environment().put("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_" + USER.toUpperCase(), hash(USER, PASSWORD));
            b.environment().put("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_" + USER.toUpperCase(), "dlq-operator");
            process = b.start();
        }

        void startQuietly() {
            try {
                start();
            } catch (IOException e) {
                log("service %d did not start: %s", index, e.getMessage());
            }
        }

        void awaitReady(Duration bound) throws Exception {
            HttpClient http = HttpClient.newHttpClient();
            long deadline = System.nanoTime() + bound.toNanos();
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("service " + index + " exited; see " + log);
                }
                try {
                    if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/q/health/ready"))
                            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException e) {
                    // not yet
                }
                Thread.sleep(200);
            }
            throw new IllegalStateException("service " + index + " not ready; see " + log);
        }

        synchronized void kill() {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void ensureUp() throws Exception {
            synchronized (this) {
                if (!process.isAlive()) {
                    start();
                }
            }
            awaitReady(Duration.ofSeconds(120));
        }

        synchronized void stop() {
            if (process != null && process.isAlive()) {
                process.destroy();
                try {
                    if (!process.waitFor(20, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    process.destroyForcibly();
                }
            }
        }
    }

    static String hash(String user, String password) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest((user + ":redrive:" + password).getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // A small blocking RESP2 client: enough for XADD, XRANGE, XPENDING, XINFO

    static final class Resp implements AutoCloseable {
        final int port, timeoutMillis;
        Socket socket;
        InputStream in;
        OutputStream outStream;

        Resp(int port, int timeoutMillis) {
            this.port = port;
            this.timeoutMillis = timeoutMillis;
        }

        Object call(String... args) throws IOException {
            try {
                if (socket == null) {
                    socket = new Socket();
                    socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                    socket.setSoTimeout(timeoutMillis);
                    in = new BufferedInputStream(socket.getInputStream());
                    outStream = socket.getOutputStream();
                }
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                for (String a : args) {
                    byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
                    b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                    b.writeBytes(bytes);
                    b.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
                }
                outStream.write(b.toByteArray());
                outStream.flush();
                return read();
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        private Object read() throws IOException {
            int type = in.read();
            String line = line();
            switch (type) {
                case '+':
                    return line;
                case '-':
                    throw new IOException(line);
                case ':':
                    return Long.parseLong(line);
                case '$': {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        return null;
                    }
                    byte[] data = in.readNBytes(n + 2);
                    return new String(data, 0, n, StandardCharsets.UTF_8);
                }
                case '*': {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        return null;
                    }
                    List<Object> items = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        items.add(read());
                    }
                    return items;
                }
                default:
                    throw new IOException("connection closed");
            }
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) != '\r') {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                b.write(c);
            }
            in.read();
            return b.toString(StandardCharsets.UTF_8);
        }

        @Override
        public void close() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
            socket = null;
        }
    }

    // ---------------------------------------------------------------------------------------------

    static final class Counts {
        final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

        void add(String what) {
            counts.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
        }

        @Override
        public String toString() {
            Map<String, Long> sorted = new TreeMap<>();
            counts.forEach((k, v) -> sorted.put(k, v.get()));
            return sorted.toString();
        }
    }

    static Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void sleepWhileRunning(long millis) {
        long end = System.currentTimeMillis() + millis;
        while (running && System.currentTimeMillis() < end) {
            sleep(Math.min(200, end - System.currentTimeMillis()));
        }
    }

    static String elapsed() {
        long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        return String.format("%d:%02d", s / 60, s % 60);
    }

    static void log(String format, Object... args) {
        System.err.printf("%s soak %s%n", Instant.now().toString().substring(11, 19), String.format(format, args));
    }
}
