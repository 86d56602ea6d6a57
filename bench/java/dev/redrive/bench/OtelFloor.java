package dev.redrive.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The OTel SDK's floor beside {@link Traced}'s reps: the peers' {@code jvm/OtelFloor} against the same sink. */
final class OtelFloor {

    private final Harness h;
    private final int sinkPort;
    private final Path floorClasses;

    OtelFloor(Harness h, int sinkPort) {
        this.h = h;
        this.sinkPort = sinkPort;
        // run.sh builds the peers' jvm/ in a private copy (PEERS_JVM) when --only has traced
        floorClasses = Path.of(System.getenv().getOrDefault("PEERS_JVM", "/tmp/redrive-bench-peers/jvm"), "target");
    }

    /**
     * The peers' OtelFloor against this sink, sized to drop nothing, paced at the traced rep's rate
     * (its jobs/s): CPU per exported span. Null when the peers' jvm/ is not built.
     */
    Double run(int rate, int rep) throws Exception {
        if (!Files.exists(floorClasses.resolve("classes/OtelFloor.class"))) {
            Figures.log("traced: no %s/classes/OtelFloor.class (run.sh builds it); the floor is not measured", floorClasses);
            return null;
        }
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-cp",
                floorClasses.resolve("classes") + ":" + floorClasses.resolve("lib") + "/*", "OtelFloor",
                String.valueOf(sinkPort), String.valueOf(h.jobs), "1.0", String.valueOf(Math.max(1000, rate)));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(Map.of("BSP_QUEUE", "262144", "BSP_BATCH", "8192", "BSP_DELAY_MS", "200"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(120, TimeUnit.SECONDS);
        Files.writeString(h.out.resolve("otel-floor-" + rep + ".txt"), out);
        for (String line : out.split("\n")) {
            if (line.startsWith("RESULT ")) {
                String cpu = Figures.jsonField(line, "cpu_us_per_span");
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", "OTel SDK floor beside it (peers' OtelFloor, queue 262,144, paced at the traced rate)");
                m.put("rep", rep);
                m.put("paced_per_s", Math.max(1000, rate));
                m.put("spans", h.jobs);
                m.put("cpu_us_per_span", Double.parseDouble(cpu));
                m.put("exported", Long.parseLong(Figures.jsonField(line, "exported")));
                m.put("dropped_approx", Long.parseLong(Figures.jsonField(line, "dropped_approx")));
                h.emit(m);
                return Double.parseDouble(cpu);
            }
        }
        Figures.log("traced: OtelFloor printed no RESULT; see otel-floor-%d.txt", rep);
        return null;
    }
}
