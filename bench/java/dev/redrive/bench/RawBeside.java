package dev.redrive.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Issue 27 item 3: the peers' raw JVM drain ({@code jvm/RawDrain}: XREADGROUP COUNT 200 with 8
 * reads in flight, one XACK per batch, nothing per job) on the same Redis right after each
 * success-path rep, so the ratio is taken within seconds, not minutes apart. Its stream
 * ({@code jvm-s}) is not the service's. Skipped when the peers' jvm/ is not built (run.sh builds it).
 */
final class RawBeside {

    private final Harness h;

    RawBeside(Harness h) {
        this.h = h;
    }

    void after(Map<String, Object> success, int rep) throws Exception {
        Path target = Path.of(System.getenv().getOrDefault("PEERS_JVM", "/tmp/redrive-bench-peers/jvm"), "target");
        if (success == null || !Files.exists(target.resolve("classes/RawDrain.class"))) {
            return;
        }
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                target.resolve("classes") + ":" + target.resolve("lib") + "/*", "RawDrain", String.valueOf(h.redisPort),
                String.valueOf(h.jobs), "200", "8");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(300, TimeUnit.SECONDS);
        h.call("DEL", "jvm-s");
        for (String line : out.split("\n")) {
            if (line.startsWith("RESULT ")) {
                double raw = Double.parseDouble(Figures.jsonField(line, "ops_per_s"));
                double redisS = Double.parseDouble(Figures.jsonField(line, "redis_cpu_s"));
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", "raw JVM drain of the peers (RawDrain, 200 x 8 in flight), right after the success path");
                m.put("rep", rep);
                m.put("jobs", h.jobs);
                m.put("raw_jobs_per_s", Math.round(raw));
                m.put("raw_redis_cpu_us_per_job", Figures.round2(redisS * 1e6 / h.jobs));
                m.put("success_jobs_per_s", success.get("jobs_per_s"));
                m.put("success_redis_cpu_us_per_job", success.get("redis_cpu_us_per_job"));
                m.put("redrive_vs_raw_pct", Figures.round1(((Number) success.get("jobs_per_s")).doubleValue() / raw * 100));
                h.emit(m);
                return;
            }
        }
        Figures.log("RawDrain printed no RESULT: %s", out);
    }
}
