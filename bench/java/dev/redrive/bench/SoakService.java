package dev.redrive.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redrive.testing.RedriveProcess;

/**
 * One of the soak's service processes (the tests' RedriveProcess, -Xmx128m): queue {@code soak},
 * handler http to the soak's downstream, with an operator user {@code soak} given as environment
 * variables (a hashed password and a role, the way a Kubernetes Secret gives them). Killed and
 * started again by the faults, on the same ports; its log appends to service-N.log.
 */
final class SoakService {

    static final String USER = "soak";
    static final String PASSWORD = "soak-secret";
    static final Duration HTTP_TIMEOUT = Duration.ofSeconds(3);

    final int index;
    private final RedriveProcess process;

    SoakService(SoakRun run, int index, int downstreamPort) {
        this.index = index;
        String q = "redrive.queues." + SoakRun.STREAM + ".";
        Map<String, String> p = new LinkedHashMap<>();
        p.put("quarkus.redis.hosts", "redis://127.0.0.1:" + run.redisPort);
        p.put(q + "handler", "http");
        p.put(q + "http.url", "http://127.0.0.1:" + downstreamPort + "/job");
        p.put(q + "http.timeout", HTTP_TIMEOUT.toMillis() + "ms");
        p.put(q + "attempts", "4");
        p.put(q + "backoff", "200ms");
        p.put(q + "max-backoff", "2s");
        p.put(q + "max-retry-after", "5s");
        p.put(q + "concurrency", "32");
        p.put(q + "visibility-timeout", "20s");
        p.put("redrive.shutdown-timeout", "5s");
        process = new RedriveProcess("soak-" + index, p).jvmOptions(List.of("-Xmx128m")).jar(run.jar)
                .logTo(run.out.resolve("service-" + index + ".log"))
                .env(Map.of("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_" + USER.toUpperCase(), Figures.userHash(USER, PASSWORD),
                        "QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_" + USER.toUpperCase(), "dlq-operator"));
    }

    int httpPort() {
        return process.httpPort();
    }

    synchronized void start() {
        process.start();
    }

    void startQuietly() {
        try {
            start();
        } catch (IllegalStateException e) {
            SoakRun.log("service %d did not start: %s", index, e.getMessage());
        }
    }

    void awaitReady(Duration bound) {
        process.awaitReady(bound);
    }

    /** SIGKILL, as an OOM kill or a lost node. */
    synchronized void kill() {
        process.kill();
    }

    void ensureUp() {
        synchronized (this) {
            if (!process.alive()) {
                start();
            }
        }
        awaitReady(Duration.ofSeconds(120));
    }

    /** SIGTERM (it drains), SIGKILL after 20 s. */
    synchronized void stop() {
        if (process.alive()) {
            try {
                process.terminate(Duration.ofSeconds(20));
            } catch (AssertionError stillRunning) {
                // killed below
            }
        }
        process.close();
    }
}
