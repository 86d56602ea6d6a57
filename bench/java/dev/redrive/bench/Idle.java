package dev.redrive.bench;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Idle (issue 12): n queues that never see a job, for a window after start-up settles: Redis
 * commands and CPU per second (INFO commandstats and cpu, reset at the window's start), beside
 * Redis's CPU with no client at all.
 */
final class Idle {

    private final Harness h;
    private final RedisProbe probe;

    Idle(Harness h, RedisProbe probe) {
        this.h = h;
        this.probe = probe;
    }

    /** @param redisAlone Redis CPU per second with no client at all (its own housekeeping, hz 10), in ms/s */
    void run(Service s, int n, int seconds, double redisAlone) throws Exception {
        // Start-up settled: the first gauge rounds (every 5 s) told every queue's safety nets there is nothing to look for.
        Thread.sleep(10_000);
        Figures.log("idle: %d queues, %d s", n, seconds);
        Window w = new Window(h, s, probe);
        Thread.sleep(seconds * 1000L);
        String stats = h.call("INFO", "commandstats").toString();
        double redisCpuS = w.redisCpuSeconds();
        double window = w.seconds();
        long processed = Figures.infoLong(h.call("INFO", "stats").toString(), "total_commands_processed");
        Files.writeString(h.out.resolve("commandstats-idle-" + n + ".txt"), stats);
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
        int[] conns = probe.serviceConnections();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "idle: " + n + " queues without jobs for " + seconds + " s");
        m.put("queues", n);
        m.put("seconds", Figures.round1(window));
        m.put("commands_per_s", Figures.round1(all / window));
        m.put("commands_per_s_per_queue", Figures.round3(all / window / n));
        m.put("commands_per_s_per_queue_beyond_blocking_read", Figures.round3((all - blocking) / window / n));
        m.put("blocking_read_commands_per_s", Figures.round2(blocking / window));
        m.put("client_commands_per_s", Figures.round1(processed / window));
        m.put("redis_cpu_ms_per_s", Figures.round2(redisCpuS * 1e3 / window));
        m.put("redis_cpu_us_per_s_per_queue", Figures.round2(redisCpuS * 1e6 / window / n));
        m.put("redis_cpu_ms_per_s_without_service", redisAlone);
        m.put("service_cpu_ms_per_s", Figures.round1((s.cpuSeconds() - s.cpuMark) * 1e3 / window));
        m.put("service_jit_cpu_ms_per_s", Figures.round1(w.jitSeconds() * 1e3 / window));
        m.put("service_connections", conns[0]);
        m.put("service_connections_blocked", conns[1]);
        m.put("service_rss_mb", s.rssMb("VmRSS:"));
        m.put("redis_top_commands", b.toString());
        m.put("redis_calls_over_1ms", probe.slowCalls());
        m.put("load", Figures.load());
        h.emit(m);
    }
}
