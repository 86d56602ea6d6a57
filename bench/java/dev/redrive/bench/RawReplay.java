package dev.redrive.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The peers' raw Lua replay (REPLAY_LUA of $PEERS_DIR/streams.js, read from there, not copied)
 * on this Redis right after redrive's, with as many one-field dead letters as the peers give
 * it: the peers' own run comes minutes later, and the box's speed moves more than that in
 * minutes, so the ratio item 5 of issue 12 asks for is taken here as well.
 */
final class RawReplay {

    private final Harness h;

    RawReplay(Harness h) {
        this.h = h;
    }

    void beside(int n, Map<String, Object> redrive) throws Exception {
        Path peers = Path.of(System.getenv().getOrDefault("PEERS_DIR", "/work/shared/bench/peers"), "streams.js");
        Matcher lua = Pattern.compile("const REPLAY_LUA = `([^`]*)`").matcher(Files.exists(peers) ? Files.readString(peers) : "");
        if (!lua.find()) {
            Figures.log("replay: no REPLAY_LUA in %s; the raw Lua replay is not run beside redrive's", peers);
            return;
        }
        String rawDlq = "{bench}:raw-dlq", target = "{bench}:raw-replayed";
        h.call("DEL", rawDlq, target);
        // The peers' dead letters: what their dead-letter Lua writes for each job.
        for (int from = 0; from < n; from += 10_000) {
            h.call("EVAL", "for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do redis.call('XADD', KEYS[1], '*', 'orig', "
                    + "'0-' .. i, 'data', '{\"i\":' .. i .. '}', 'error', 'boom') end", "1", rawDlq,
                    String.valueOf(from), String.valueOf(Math.min(n, from + 10_000) - 1));
        }
        String sha = h.call("SCRIPT", "LOAD", lua.group(1)).toString();
        double cpu0 = h.redisCpu();
        long t0 = System.nanoTime();
        long movedRaw = 0;
        for (long k; (k = h.call("EVALSHA", sha, "2", rawDlq, target, "1000").toLong()) > 0;) {
            movedRaw += k;
        }
        long t1 = System.nanoTime();
        double cpu1 = h.redisCpu();
        Figures.check(movedRaw == n && h.call("XLEN", target).toLong() == n, "the raw replay moved %d of %d", movedRaw, n);
        double seconds = (t1 - t0) / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "raw Lua replay of the peers (XRANGE+XADD+XDEL per 1000), right after redrive's");
        m.put("jobs", n);
        m.put("seconds", Figures.round3(seconds));
        m.put("jobs_per_s", Math.round(n / seconds));
        m.put("redis_cpu_us_per_job", Figures.round2((cpu1 - cpu0) * 1e6 / n));
        m.put("redrive_vs_raw_pct", Figures.round1(((Number) redrive.get("jobs_per_s")).doubleValue() / (n / seconds) * 100));
        h.emit(m);
        h.call("DEL", rawDlq, target);
    }
}
