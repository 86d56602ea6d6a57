package dev.redrive.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vertx.core.http.HttpServer;

/**
 * The HTTP ceiling (issue 12): a JVM of its own ({@link CeilingClient}) calling the same no-op
 * server with the Vert.x HTTP client configured as the HTTP handler's, kept running between its
 * reps: it warms up once, then runs one rep of n calls per "go" line on its stdin and answers with
 * a CEILING line. With {@code http} in the same session the handler's ratio to it.
 */
final class Ceiling implements AutoCloseable {

    private final Harness h;
    private final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;
    private final int n;
    private final Path log;
    private final List<Map<String, Object>> results = new ArrayList<>();

    private Ceiling(Harness h, Process process, int n, Path log) {
        this.h = h;
        this.process = process;
        this.n = n;
        this.log = log;
        this.in = process.outputWriter();
        this.out = process.inputReader();
    }

    /**
     * The ceiling alone (--only httpceiling without http); with http as well, HttpPath runs the
     * two interleaved, a handler rep then a ceiling rep, so the box's ups and downs fall on both.
     */
    static void alone(Harness h) throws Exception {
        HttpServer server = HttpPath.noopServer(h);
        try (Ceiling ceiling = start(h, server.actualPort(), Math.max(10, h.jobs / 4), HttpPath.HTTP_WARM_UP)) {
            for (int rep = 1; rep <= h.reps; rep++) {
                ceiling.rep(rep);
            }
            ceiling.compare();
        } finally {
            server.close();
        }
    }

    static Ceiling start(Harness h, int port, int n, int warm) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String o : h.javaOpts.trim().split("\\s+")) {
            if (!o.isEmpty()) {
                cmd.add(o.replace("{tag}", "httpceiling"));
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CeilingClient.class.getName(), "http-client",
                String.valueOf(port), String.valueOf(n), String.valueOf(warm)));
        Path log = h.out.resolve("httpceiling.log");
        Files.writeString(h.out.resolve("httpceiling.cmd"), String.join(" ", cmd) + "\n");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        Ceiling c = new Ceiling(h, p, n, log);
        Figures.check("READY".equals(c.out.readLine()), "the HTTP ceiling client did not warm up; see %s", log);
        return c;
    }

    Map<String, Object> rep(int rep) throws Exception {
        in.write("go\n");
        in.flush();
        String line = out.readLine();
        Figures.check(line != null && line.startsWith("CEILING "), "the HTTP ceiling client failed; see %s", log);
        String[] f = line.split(" ");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "HTTP ceiling: one JVM, Vert.x HTTP client, " + CeilingClient.IN_FLIGHT
                + " in flight, keep-alive, the same no-op server");
        m.put("jobs", n);
        m.put("seconds", Double.parseDouble(f[1]));
        m.put("jobs_per_s", Math.round(n / Double.parseDouble(f[1])));
        m.put("client_cpu_us_per_call", Double.parseDouble(f[2]));
        m.put("client_rss_peak_mb", Double.parseDouble(f[3]));
        m.put("rep", rep);
        m.put("load", Figures.load());
        h.emit(m);
        results.add(m);
        return m;
    }

    /** The handler's runs beside the ceiling's: medians, and each pair's ratio (rep k of both). */
    void compare() {
        List<Map<String, Object>> handler = h.results.stream()
                .filter(r -> String.valueOf(r.get("name")).startsWith("HTTP handler against")).toList();
        if (handler.isEmpty() || results.isEmpty()) {
            return;
        }
        double hd = Figures.median(handler, "jobs_per_s"), c = Figures.median(results, "jobs_per_s");
        List<Double> pairs = new ArrayList<>();
        for (int k = 0; k < Math.min(handler.size(), results.size()); k++) {
            pairs.add(Figures.round1(((Number) handler.get(k).get("jobs_per_s")).doubleValue()
                    / ((Number) results.get(k).get("jobs_per_s")).doubleValue() * 100));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "HTTP handler vs HTTP ceiling");
        m.put("handler_jobs_per_s", Math.round(hd));
        m.put("ceiling_jobs_per_s", Math.round(c));
        m.put("ratio_pct", Figures.round1(hd / c * 100));
        m.put("pair_ratios_pct", pairs.toString().replace(" ", ""));
        m.put("handler_service_cpu_us_per_job", Figures.median(handler, "service_cpu_us_per_job"));
        m.put("ceiling_client_cpu_us_per_call", Figures.median(results, "client_cpu_us_per_call"));
        h.emit(m);
    }

    @Override
    public void close() throws Exception {
        in.close(); // EOF: the client stops
        Figures.check(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0,
                "the HTTP ceiling client failed; see %s", log);
    }
}
