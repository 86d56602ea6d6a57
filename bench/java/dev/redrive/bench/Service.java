package dev.redrive.bench;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.redrive.testing.RedriveProcess;

/**
 * The service under test: the packaged jar started by the tests' launcher (RedriveProcess) with
 * the run's JVM options, one queue {@code bench} with a bench handler, and the operator user
 * {@code bench}; ready once it holds a blocking XREADGROUP and its HTTP port is open. It reads its
 * own CPU and RSS from /proc.
 */
final class Service implements AutoCloseable {

    final RedriveProcess process;
    final Path log;
    private final Harness h;
    double cpuMark;

    private Service(Harness h, RedriveProcess process, Path log) {
        this.h = h;
        this.process = process;
        this.log = log;
    }

    static Service start(Harness h, String tag, String handler, Map<String, String> queue) throws Exception {
        return start(h, tag, handler, queue, List.of());
    }

    /**
     * {@code jvmArgs}: more options for the service's JVM (e.g. -D properties of more queues, the
     * OTLP endpoint that turns tracing on).
     */
    static Service start(Harness h, String tag, String handler, Map<String, String> queue, List<String> jvmArgs)
            throws Exception {
        List<String> jvm = new ArrayList<>();
        for (String o : h.javaOpts.trim().split("\\s+")) {
            if (!o.isEmpty()) {
                jvm.add(o.replace("{tag}", tag));
            }
        }
        String q = "redrive.queues." + Harness.STREAM + ".";
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("quarkus.redis.hosts", "redis://127.0.0.1:" + h.redisPort);
        properties.put(q + "handler", handler);
        properties.put(q + "concurrency", String.valueOf(h.concurrency));
        properties.put(q + "batch", String.valueOf(h.batch));
        // the operator API's Basic user
        properties.put("quarkus.security.users.embedded.users." + Harness.BENCH_USER,
                Figures.userHash(Harness.BENCH_USER, Harness.BENCH_PASSWORD));
        properties.put("quarkus.security.users.embedded.roles." + Harness.BENCH_USER, "dlq-operator");
        queue.forEach((k, v) -> properties.put(q + k, v));
        // BENCH_QUEUE_OPTS="retry-poll=10ms,concurrency=400": extra or overriding queue properties
        for (String kv : System.getenv().getOrDefault("BENCH_QUEUE_OPTS", "").split(",")) {
            int eq = kv.trim().indexOf('=');
            if (eq > 0) {
                properties.put(q + kv.trim().substring(0, eq), kv.trim().substring(eq + 1));
            }
        }
        // -D options of jvmArgs override the properties above (a TLS URL for quarkus.redis.hosts)
        for (String arg : jvmArgs) {
            int eq = arg.indexOf('=');
            if (arg.startsWith("-D") && eq > 2) {
                properties.put(arg.substring(2, eq), arg.substring(eq + 1));
            } else {
                jvm.add(arg);
            }
        }
        Path log = h.out.resolve("service-" + tag + ".log");
        // As it ships: with its warm-up (BENCH_JAVA_OPTS="-Dredrive.warm-up.jobs=0" runs without).
        RedriveProcess p = new RedriveProcess(tag, properties).withWarmUp().jvmOptions(jvm).jar(h.jar).logTo(log)
                .start();
        Files.writeString(h.out.resolve("service-" + tag + ".cmd"), String.join(" ", p.command()) + "\n");
        Service s = new Service(h, p, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Figures.check(p.alive(), "service %s exited; see %s", tag, log);
            // reading, its HTTP port open (the workers may read before the HTTP server listens) and
            // ready (its warm-up reads a stream of its own before the queues start)
            if (h.call("CLIENT", "LIST").toString().contains("cmd=xreadgroup") && listening(p.httpPort())
                    && p.readiness() == 200) {
                Figures.log("service %s: pid %d, reading (log %s)", tag, p.pid(), log);
                return s;
            }
            Thread.sleep(50);
        }
        s.close();
        throw new IllegalStateException("service " + tag + " did not start reading; see " + log);
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** Marks the start of a window for the service CPU per job (read from /proc, 10 ms ticks). */
    void mark() throws Exception {
        cpuMark = cpuSeconds();
        h.call("CONFIG", "RESETSTAT");
    }

    long pid() {
        return process.pid();
    }

    String api() {
        return "http://127.0.0.1:" + process.httpPort();
    }

    String metrics() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + process.managementPort() + "/q/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Peak resident set size so far (VmHWM), in MB. */
    double peakRssMb() throws IOException {
        return rssMb("VmHWM:");
    }

    double rssMb(String field) throws IOException {
        return Figures.rssOf(Path.of("/proc/" + pid() + "/status"), field);
    }

    double cpuSeconds() throws IOException {
        String[] f = Files.readString(Path.of("/proc/" + pid() + "/stat")).replaceFirst("^.*\\) ", "").split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime + stime in clock ticks
    }

    /** CPU of the service's JIT compiler threads so far (the JVM still compiles well after start-up). */
    double jitSeconds() throws IOException {
        double ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid() + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    if (Files.readString(t.resolve("comm")).contains("CompilerThre")) {
                        String[] f = Files.readString(t.resolve("stat")).replaceFirst("^.*\\) ", "").split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (IOException gone) {
                    // the thread ended
                }
            }
        }
        return ticks / 100.0;
    }

    /** SIGTERM (a JFR recording is written on the way out), SIGKILL after 40 s. */
    @Override
    public void close() {
        try {
            process.terminate(Duration.ofSeconds(40));
        } catch (AssertionError stillRunning) {
            // killed below
        } finally {
            process.close();
        }
    }
}
