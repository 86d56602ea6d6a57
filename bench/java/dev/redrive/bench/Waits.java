package dev.redrive.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the tail waits (issue 27 item 4): over a window, per kind of the service's threads (Vert.x
 * event loops, JIT compiler threads, GC threads, the rest), the CPU they ran and the time they
 * were ready to run but waited for a core (the kernel's run-queue wait, /proc/PID/task/TID/schedstat);
 * and the JVM's GC pauses (Micrometer's jvm_gc_pause_seconds from /q/metrics: count, sum, max).
 * A job's start can't come sooner than its event loop gets a core, so the event loop's run-queue
 * wait is what neighbours on the same cores cost it; a GC pause stops every thread at once.
 */
final class Waits {

    final Map<String, long[]> threads; // kind -> {ran ns, waited ns}
    final double gcCount, gcSeconds;

    private Waits(Map<String, long[]> threads, double gcCount, double gcSeconds) {
        this.threads = threads;
        this.gcCount = gcCount;
        this.gcSeconds = gcSeconds;
    }

    static Waits of(Service s) throws Exception {
        Map<String, long[]> by = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + s.pid() + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String[] f = Files.readString(t.resolve("schedstat")).trim().split(" ");
                    long[] sum = by.computeIfAbsent(kind(Files.readString(t.resolve("comm")).trim()), k -> new long[2]);
                    sum[0] += Long.parseLong(f[0]);
                    sum[1] += Long.parseLong(f[1]);
                } catch (IOException gone) {
                    // the thread ended
                }
            }
        }
        String metrics = s.metrics();
        return new Waits(by, total(metrics, "jvm_gc_pause_seconds_count"), total(metrics, "jvm_gc_pause_seconds_sum"));
    }

    static String kind(String comm) {
        if (comm.startsWith("vert.x-eventloo")) {
            return "event_loop";
        }
        if (comm.contains("CompilerThre")) {
            return "jit";
        }
        if (comm.startsWith("GC ") || comm.startsWith("G1 ")) {
            return "gc";
        }
        return "other";
    }

    /** The window since {@code before}, in ms, per thread kind; GC pauses from the service's own meter. */
    Map<String, Object> since(Waits before, Service s, long jobs) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        threads.forEach((kind, v) -> {
            long[] b = before.threads.getOrDefault(kind, new long[2]);
            m.put(kind + "_ran_ms", Figures.round1((v[0] - b[0]) / 1e6));
            m.put(kind + "_runqueue_wait_ms", Figures.round1((v[1] - b[1]) / 1e6));
        });
        m.put("gc_pauses", Math.round(gcCount - before.gcCount));
        m.put("gc_pause_ms", Figures.round1((gcSeconds - before.gcSeconds) * 1000));
        Double max = Figures.metric(s.metrics(), "jvm_gc_pause_seconds_max");
        m.put("gc_pause_max_ms_recent", max == null ? null : Figures.round1(max * 1000));
        m.put("load", new String(Files.readAllBytes(Path.of("/proc/loadavg"))).split(" ")[0]);
        return m;
    }

    static double total(String metrics, String name) {
        double sum = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
