package dev.redrive.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;

/**
 * Issue 24: what the Redis of production costs. {@code tls}: the success and failure paths with the
 * service on a TLS port (client certificate, hostname verification, a CA made here with openssl)
 * beside the same on the plain port of the same redis-server. {@code replicas}: a primary and one
 * replica started here; the success path, the failure path and a bulk replay (the operator writes
 * that wait) with {@code redrive.redis.wait-replicas=1} beside 0, the replica attached in both.
 * Per rep one service of each kind (the order alternates), each warmed up; one JSON line per
 * measurement and one comparing the medians.
 */
final class Production {

    final Path dir;
    final List<Process> servers = new ArrayList<>();

    Production(String name) throws IOException {
        dir = Files.createDirectories(Bench.out.resolve(name));
    }

    static void run(java.util.Set<String> only) throws Exception {
        if (only.contains("tls")) {
            new Production("tls").tls();
        }
        if (only.contains("replicas")) {
            new Production("replicas").replicas();
        }
    }

    // ---------------------------------------------------------------------------------------------

    void tls() throws Exception {
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=bench CA", "-keyout", "ca.key",
                "-out", "ca.crt");
        sign("server", "/CN=localhost", "subjectAltName=IP:127.0.0.1,DNS:localhost");
        sign("client", "/CN=redrive", "extendedKeyUsage=clientAuth");
        int plain = Bench.freePort(), tls = Bench.freePort();
        server(plain, "--tls-port", String.valueOf(tls), "--tls-cert-file", file("server.crt"), "--tls-key-file",
                file("server.key"), "--tls-ca-cert-file", file("ca.crt"), "--tls-auth-clients", "yes");
        List<String> overTls = List.of("-Dquarkus.redis.hosts=rediss://127.0.0.1:" + tls,
                "-Dquarkus.redis.tls-configuration-name=redis",
                "-Dquarkus.tls.redis.trust-store.pem.certs=" + file("ca.crt"),
                "-Dquarkus.tls.redis.key-store.pem.0.cert=" + file("client.crt"),
                "-Dquarkus.tls.redis.key-store.pem.0.key=" + file("client.key"),
                "-Dquarkus.tls.redis.hostname-verification-algorithm=HTTPS");
        Map<String, List<String>> kinds = new LinkedHashMap<>();
        kinds.put("plain text", List.of());
        kinds.put("TLS (mTLS, hostname verified)", overTls);
        compare("TLS", plain, kinds, false);
    }

    void replicas() throws Exception {
        int primary = Bench.freePort(), replica = Bench.freePort();
        server(primary);
        server(replica, "--replicaof", "127.0.0.1", String.valueOf(primary));
        Map<String, List<String>> kinds = new LinkedHashMap<>();
        kinds.put("wait-replicas=0", List.of("-Dredrive.redis.wait-replicas=0"));
        kinds.put("wait-replicas=1", List.of("-Dredrive.redis.wait-replicas=1"));
        compare("wait-replicas", primary, kinds, true);
    }

    /** Runs each kind per rep on the Redis at {@code port} (the harness's own connection moved to it); the first kind is the base. */
    void compare(String what, int port, Map<String, List<String>> kinds, boolean replay) throws Exception {
        int harnessPort = Bench.redisPort;
        RedisConnection harness = Bench.conn;
        Bench.redisPort = port;
        Bench.conn = Redis.createClient(Bench.vertx, new RedisOptions().setConnectionString("redis://127.0.0.1:" + port)
                .setPreferredProtocolVersion(ProtocolVersion.RESP2).setMaxWaitingHandlers(1_000_000))
                .connect().toCompletionStage().toCompletableFuture().get();
        Map<String, List<Map<String, Object>>> runs = new LinkedHashMap<>();
        try {
            List<String> names = new ArrayList<>(kinds.keySet());
            for (int rep = 1; rep <= Bench.reps; rep++) {
                for (int i = 0; i < names.size(); i++) {
                    String kind = names.get((i + rep - 1) % names.size());
                    runs.computeIfAbsent(kind, k -> new ArrayList<>()).addAll(paths(what, kind, kinds.get(kind), rep, replay));
                }
            }
        } finally {
            Bench.conn.close();
            Bench.conn = harness;
            Bench.redisPort = harnessPort;
            servers.forEach(Process::destroy);
        }
        String base = new ArrayList<>(kinds.keySet()).get(0), other = new ArrayList<>(kinds.keySet()).get(1);
        for (String path : replay ? List.of("success", "failure", "replay") : List.of("success", "failure")) {
            double a = median(runs.get(base), path), b = median(runs.get(other), path);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", what + ": " + path + " path, " + other + " vs " + base + ", medians");
            m.put(key(base) + "_per_s", Math.round(a));
            m.put(key(other) + "_per_s", Math.round(b));
            m.put("ratio_pct", Bench.round1(b / a * 100));
            m.put("reps", Bench.reps);
            Bench.emit(m);
        }
    }

    /**
     * A service with handler noop: the success path (two warm-ups, one timed) and, with
     * {@code replay}, a bulk replay (one warm-up, one timed); then one with handler fail: the
     * failure path (one warm-up, one timed).
     */
    List<Map<String, Object>> paths(String what, String kind, List<String> jvm, int rep, boolean replay) throws Exception {
        Bench.call("FLUSHALL");
        Bench.call("XGROUP", "CREATE", Bench.STREAM, Bench.GROUP, "$", "MKSTREAM");
        List<Map<String, Object>> lines = new ArrayList<>();
        String tag = what.toLowerCase() + "-" + key(kind);
        // redis-timeout 30s: at a load of 40 on this box the first TLS connection of the start-up
        // permission check took longer than its 5s default, and the service did not start
        jvm = new ArrayList<>(jvm);
        jvm.add("-Dredrive.redis-timeout=30s");
        try (Bench.Service s = Bench.Service.start(tag, "noop", Map.of("backoff", "0ms", "attempts", "3"), jvm)) {
            Bench.warmUp(s, Bench.jobs);
            Bench.warmUp(s, Bench.jobs);
            lines.add(timed(s, what + ", " + kind + ": success path", Bench.jobs, false, rep, "success"));
            if (replay) {
                // the replayed jobs run meanwhile (noop)
                lines.add(Bench.replayLine(s, what + ", " + kind + ": bulk replay (one redrive task) entries/s",
                        Map.of("rep", rep, "path", "replay")));
            }
        }
        Bench.call("FLUSHALL");
        Bench.call("XGROUP", "CREATE", Bench.STREAM, Bench.GROUP, "$", "MKSTREAM");
        int failing = Math.max(10, Bench.jobs / 10);
        try (Bench.Service s = Bench.Service.start(tag + "-fail", "fail", Map.of("backoff", "0ms", "attempts", "3"), jvm)) {
            timed(s, null, Math.max(failing, 3 * failing), true, rep, "failure");
            lines.add(timed(s, what + ", " + kind + ": failure path (3 attempts, into the DLQ)", failing, true, rep, "failure"));
        }
        return lines;
    }

    /** A staged backlog of n jobs, timed from the first read to the last ack (failing: to the last park). */
    Map<String, Object> timed(Bench.Service s, String name, int n, boolean failing, int rep, String path) throws Exception {
        long dlq0 = failing ? Bench.call("XLEN", Bench.DLQ).toLong() : 0;
        Bench.call("DEL", Bench.STAGE);
        Bench.gen(Bench.STAGE, n - 1, 0);
        Bench.call("XGROUP", "CREATE", Bench.STAGE, Bench.GROUP, "0", "ENTRIESREAD", "0");
        s.mark();
        double cpu0 = Bench.redisCpu();
        Bench.call("RENAME", Bench.STAGE, Bench.STREAM);
        Bench.call("XADD", Bench.STREAM, "*", "payload", "{\"job\":\"last\"}");
        long[] window = Bench.watch(0, n, 0, Duration.ofSeconds(300), () -> failing ? Bench.call("XLEN", Bench.DLQ).toLong() : 0L,
                failing ? dlq0 + n : -1);
        double cpu1 = Bench.redisCpu();
        if (name == null) {
            return null;
        }
        return Bench.report(s, name, n, window, cpu1 - cpu0, new LinkedHashMap<>(Map.of("rep", rep, "path", path)));
    }

    static double median(List<Map<String, Object>> runs, String path) {
        return Bench.median(runs.stream().filter(r -> path.equals(r.get("path"))).toList(), "jobs_per_s");
    }

    static String key(String kind) {
        return kind.replaceAll("[^a-zA-Z0-9]+", "_").replaceAll("_+$", "").toLowerCase();
    }

    // ---------------------------------------------------------------------------------------------

    void server(int port, String... more) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--logfile", dir.resolve("redis-" + port + ".log").toString()));
        cmd.addAll(List.of(more));
        servers.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("redis-" + port + ".out").toFile()).start());
        for (int i = 0; i < 100; i++) {
            try (var socket = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("redis-server on " + port + " did not start; see " + dir);
    }

    String file(String name) {
        return dir.resolve(name).toString();
    }

    void sign(String name, String subject, String extension) throws Exception {
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", name + ".key", "-out", name + ".csr");
        Files.writeString(dir.resolve(name + ".ext"), extension + "\n");
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
                "-extfile", name + ".ext", "-out", name + ".crt");
    }

    void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Bench.check(p.waitFor() == 0, "%s failed: %s", cmd, out);
    }
}
