package dev.redrive.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.redrive.testing.RawRedis;
import io.vertx.redis.client.Response;

/**
 * One bench run's settings (bench/run.sh's options), its connection to the private redis-server
 * (the tests' RawRedis, on the Vert.x client redrive uses) and the lines it has emitted so far.
 * Every measurement is handed one; nothing of it is static.
 */
final class Harness implements AutoCloseable {

    static final String STREAM = "bench";
    static final String STAGE = "bench:stage";
    static final String BASE = "bench:base";
    static final String GROUP = "redrive";
    static final String RETRY_CONSUMER = "redrive-retry";
    static final String DLQ = "{bench}:dlq";
    static final String BENCH_USER = "bench";
    static final String BENCH_PASSWORD = "bench-secret";

    /** Adds ARGV[1] entries numbered from ARGV[2] to KEYS[1] inside Redis: staging costs no round trips. */
    static final String GEN = """
            local n, from = tonumber(ARGV[1]), tonumber(ARGV[2])
            for i = 0, n - 1 do redis.call('XADD', KEYS[1], '*', 'payload', '{"job":' .. (from + i) .. '}') end
            return n""";

    final Map<String, String> args;
    final Set<String> only;
    final int redisPort, jobs, reps, concurrency, batch;
    final Path jar, out;
    final String javaOpts;
    final RawRedis redis;
    final List<Map<String, Object>> results;

    private Harness(Map<String, String> args, int redisPort, RawRedis redis, List<Map<String, Object>> results) {
        this.args = args;
        this.redisPort = redisPort;
        this.redis = redis;
        this.results = results;
        jobs = Integer.parseInt(args.getOrDefault("jobs", "200000"));
        reps = Integer.parseInt(args.getOrDefault("reps", "5"));
        concurrency = Integer.parseInt(args.getOrDefault("concurrency", "1000"));
        batch = Integer.parseInt(args.getOrDefault("batch", String.valueOf(Math.min(concurrency, 200))));
        jar = Path.of(args.get("jar"));
        out = Path.of(args.get("out"));
        javaOpts = args.getOrDefault("java-opts", "");
        // names, not substrings: "httpceiling" (Scale) must not also run "http"
        only = Set.of(args.getOrDefault("only", "success,growth,failure,replay,latency,http,traced,console," + Scale.ALL)
                .split(","));
    }

    /** bench/run.sh's "--name value" pairs; connects to the redis-server on --redis-port. */
    static Harness open(String[] argv) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            a.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        int port = Integer.parseInt(a.get("redis-port"));
        Harness h = new Harness(a, port, RawRedis.connect(port), new ArrayList<>());
        Files.createDirectories(h.out);
        return h;
    }

    /** The same run on another redis-server (TLS, a replica's primary); its lines join this run's. */
    Harness on(int port) throws Exception {
        return new Harness(args, port, RawRedis.connect(port), results);
    }

    int intArg(String name, int defaultValue) {
        return Integer.parseInt(args.getOrDefault(name, String.valueOf(defaultValue)));
    }

    Response call(String... command) throws Exception {
        return redis.call((Object[]) command);
    }

    /** Adds n entries server-side (a Lua loop in chunks), so staging costs no network round trips. */
    void gen(String key, int n, long from) throws Exception {
        for (int done = 0; done < n; done += 20_000) {
            int chunk = Math.min(20_000, n - done);
            call("EVAL", GEN, "1", key, String.valueOf(chunk), String.valueOf(from + done));
        }
    }

    /** Empties Redis and creates the queue's stream with its group. */
    void fresh() throws Exception {
        call("FLUSHALL");
        call("XGROUP", "CREATE", STREAM, GROUP, "$", "MKSTREAM");
    }

    Map<String, Response> group() throws Exception {
        return group(STREAM);
    }

    Map<String, Response> group(String stream) throws Exception {
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

    String lastId(String key) throws Exception {
        Response r = call("XREVRANGE", key, "+", "-", "COUNT", "1");
        return r.size() == 0 ? "0-0" : r.get(0).get(0).toString();
    }

    double redisCpu() throws Exception {
        double s = 0;
        for (String line : call("INFO", "cpu").toString().split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                s += Double.parseDouble(line.split(":")[1].trim());
            }
        }
        return s;
    }

    /**
     * Where Redis spent its time in the window (INFO commandstats, reset at the window's start;
     * commands run inside scripts count under their own names too): the top five as
     * "command calls µs/job", and the whole table in commandstats-*.txt.
     */
    String topCommands(String name, Object rep, int n) throws Exception {
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

    /** One "RESULT {json}" line on stdout (run.sh and summarize.py read them). */
    void emit(Map<String, Object> m) {
        results.add(m);
        System.out.println("RESULT " + Figures.json(m));
        System.out.flush();
    }

    @Override
    public void close() {
        redis.close();
    }
}
