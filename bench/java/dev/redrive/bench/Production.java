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

import dev.redrive.testing.RedisServer;

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

    private final Path dir;
    private final List<RedisServer> servers = new ArrayList<>();
    private final Harness base;
    private Harness h;
    private Gate gate;

    private Production(Harness base, String name) throws IOException {
        this.base = base;
        this.dir = Files.createDirectories(base.out.resolve(name));
    }

    static void run(Harness h) throws Exception {
        if (h.only.contains("tls")) {
            new Production(h, "tls").tls();
        }
        if (h.only.contains("replicas")) {
            new Production(h, "replicas").replicas();
        }
    }

    // ---------------------------------------------------------------------------------------------

    void tls() throws Exception {
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=bench CA", "-keyout", "ca.key",
                "-out", "ca.crt");
        sign("server", "/CN=localhost", "subjectAltName=IP:127.0.0.1,DNS:localhost");
        sign("client", "/CN=redrive", "extendedKeyUsage=clientAuth");
        int plain = RedisServer.freePort(), tls = RedisServer.freePort();
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
        int primary = RedisServer.freePort(), replica = RedisServer.freePort();
        server(primary);
        server(replica, "--replicaof", "127.0.0.1", String.valueOf(primary));
        Map<String, List<String>> kinds = new LinkedHashMap<>();
        kinds.put("wait-replicas=0", List.of("-Dredrive.redis.wait-replicas=0"));
        kinds.put("wait-replicas=1", List.of("-Dredrive.redis.wait-replicas=1"));
        compare("wait-replicas", primary, kinds, true);
    }

    /** Runs each kind per rep on the Redis at {@code port} (a harness of its own on it); the first kind is the base. */
    void compare(String what, int port, Map<String, List<String>> kinds, boolean replay) throws Exception {
        h = base.on(port);
        gate = new Gate(h);
        Map<String, List<Map<String, Object>>> runs = new LinkedHashMap<>();
        try {
            List<String> names = new ArrayList<>(kinds.keySet());
            for (int rep = 1; rep <= h.reps; rep++) {
                for (int i = 0; i < names.size(); i++) {
                    String kind = names.get((i + rep - 1) % names.size());
                    runs.computeIfAbsent(kind, k -> new ArrayList<>()).addAll(paths(what, kind, kinds.get(kind), rep, replay));
                }
            }
        } finally {
            h.close();
            servers.forEach(RedisServer::close);
        }
        String base = new ArrayList<>(kinds.keySet()).get(0), other = new ArrayList<>(kinds.keySet()).get(1);
        for (String path : replay ? List.of("success", "failure", "replay") : List.of("success", "failure")) {
            double a = median(runs.get(base), path), b = median(runs.get(other), path);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", what + ": " + path + " path, " + other + " vs " + base + ", medians");
            m.put(key(base) + "_per_s", Math.round(a));
            m.put(key(other) + "_per_s", Math.round(b));
            m.put("ratio_pct", Figures.round1(b / a * 100));
            m.put("reps", h.reps);
            h.emit(m);
        }
    }

    /**
     * A service with handler noop: the success path (two warm-ups, one timed) and, with
     * {@code replay}, a bulk replay (one warm-up, one timed); then one with handler fail: the
     * failure path (one warm-up, one timed).
     */
    List<Map<String, Object>> paths(String what, String kind, List<String> jvm, int rep, boolean replay) throws Exception {
        h.fresh();
        List<Map<String, Object>> lines = new ArrayList<>();
        String tag = what.toLowerCase() + "-" + key(kind);
        // redis-timeout 30s: at a load of 40 on this box the first TLS connection of the start-up
        // permission check took longer than its 5s default, and the service did not start
        jvm = new ArrayList<>(jvm);
        jvm.add("-Dredrive.redis-timeout=30s");
        try (Service s = Service.start(h, tag, "noop", Map.of("backoff", "0ms", "attempts", "3"), jvm)) {
            gate.warmUp(s, h.jobs);
            gate.warmUp(s, h.jobs);
            lines.add(timed(s, what + ", " + kind + ": success path", h.jobs, false, rep, "success"));
            if (replay) {
                // the replayed jobs run meanwhile (noop)
                lines.add(new BulkReplay(h).line(s, what + ", " + kind + ": bulk replay (one redrive task) entries/s",
                        Map.of("rep", rep, "path", "replay")));
            }
        }
        h.fresh();
        int failing = Math.max(10, h.jobs / 10);
        try (Service s = Service.start(h, tag + "-fail", "fail", Map.of("backoff", "0ms", "attempts", "3"), jvm)) {
            timed(s, null, Math.max(failing, 3 * failing), true, rep, "failure");
            lines.add(timed(s, what + ", " + kind + ": failure path (3 attempts, into the DLQ)", failing, true, rep, "failure"));
        }
        return lines;
    }

    /** A staged backlog of n jobs, timed from the first read to the last ack (failing: to the last park). */
    Map<String, Object> timed(Service s, String name, int n, boolean failing, int rep, String path) throws Exception {
        long dlq0 = failing ? h.call("XLEN", Harness.DLQ).toLong() : 0;
        gate.stage(n);
        s.mark();
        double cpu0 = h.redisCpu();
        gate.open();
        long[] window = gate.watch(0, n, 0, Duration.ofSeconds(300), () -> failing ? h.call("XLEN", Harness.DLQ).toLong() : 0L,
                failing ? dlq0 + n : -1);
        double cpu1 = h.redisCpu();
        if (name == null) {
            return null;
        }
        return gate.report(s, name, n, window, cpu1 - cpu0, new LinkedHashMap<>(Map.of("rep", rep, "path", path)));
    }

    static double median(List<Map<String, Object>> runs, String path) {
        return Figures.median(runs.stream().filter(r -> path.equals(r.get("path"))).toList(), "jobs_per_s");
    }

    static String key(String kind) {
        return kind.replaceAll("[^a-zA-Z0-9]+", "_").replaceAll("_+$", "").toLowerCase();
    }

    // ---------------------------------------------------------------------------------------------

    /** A redis-server of the tests' fixture, its files and log in this measurement's directory. */
    void server(int port, String... more) {
        List<String> args = new ArrayList<>(List.of("--dir", dir.toString(), "--logfile", dir.resolve("redis-" + port + ".log").toString()));
        args.addAll(List.of(more));
        servers.add(new RedisServer(port, args.toArray(String[]::new)).start());
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
        Figures.check(p.waitFor() == 0, "%s failed: %s", cmd, out);
    }
}
