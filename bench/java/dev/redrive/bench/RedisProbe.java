package dev.redrive.bench;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.redrive.redis.LuaScripts;
import io.vertx.redis.client.Response;

/** What Redis says about the service beside the figures: its connections, the slow log, the retries waiting. */
final class RedisProbe {

    private final Harness h;
    private Map<String, String> scripts;

    RedisProbe(Harness h) {
        this.h = h;
    }

    /** The service's connections to Redis (all but the harness's one) and how many of them are blocked. */
    int[] serviceConnections() throws Exception {
        long harness = h.call("CLIENT", "ID").toLong();
        int all = 0, blocked = 0;
        for (String line : h.call("CLIENT", "LIST").toString().split("\r?\n")) {
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

    /** The service's scripts by SHA1, as LuaScripts assembles them. */
    private Map<String, String> scriptNames() throws Exception {
        if (scripts == null) {
            scripts = new LinkedHashMap<>();
            LuaScripts lua = new LuaScripts();
            for (var script : LuaScripts.Script.values()) {
                byte[] sha = MessageDigest.getInstance("SHA-1").digest(lua.body(script).getBytes(StandardCharsets.UTF_8));
                scripts.put(HexFormat.of().formatHex(sha), script.file());
            }
        }
        return scripts;
    }

    void slowlogReset() throws Exception {
        h.call("CONFIG", "SET", "slowlog-log-slower-than", "1000");
        h.call("SLOWLOG", "RESET");
    }

    /** SLOWLOG since its reset: how many calls took 1 ms or more, and the longest few (command, arguments, ms). */
    String slowCalls() throws Exception {
        long n = h.call("SLOWLOG", "LEN").toLong();
        List<String> longest = new ArrayList<>();
        List<Response> all = new ArrayList<>();
        h.call("SLOWLOG", "GET", "128").forEach(all::add);
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

    long waitingForRetry() throws Exception {
        Response summary = h.call("XPENDING", Harness.STREAM, Harness.GROUP);
        if (summary.get(0).toLong() == 0 || summary.get(3) == null) {
            return 0;
        }
        for (Response owner : summary.get(3)) {
            if (owner.get(0).toString().equals(Harness.RETRY_CONSUMER)) {
                return owner.get(1).toLong();
            }
        }
        return 0;
    }
}
