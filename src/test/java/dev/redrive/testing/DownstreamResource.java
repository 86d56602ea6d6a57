package dev.redrive.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts a {@link Downstream} HTTP server and points queues {@code calls}, {@code early} and
 * {@code outage} at it; a closed port
 * stands in for a provider that is down ({@code refused} queue). The server is injected into
 * the test's {@code Downstream} field.
 */
public class DownstreamResource implements QuarkusTestResourceLifecycleManager {

    private Downstream downstream;
    /** A free port for a test's own server (e.g. one that answers before reading the body). */
    public static final int SPARE_PORT = RedisServer.freePort();

    @Override
    public Map<String, String> start() {
        downstream = new Downstream(RedisServer.freePort());
        return Map.of("redrive.queues.calls.http.url", downstream.url("/jobs"),
                "redrive.queues.early.http.url", downstream.url("/early"),
                "redrive.queues.outage.http.url", downstream.url("/outage"),
                "redrive.queues.headers.http.url", downstream.url("/headers"),
                "redrive.queues.blackout.http.url", downstream.url("/blackout"),
                "redrive.queues.unproposed.http.url", downstream.url("/unproposed"),
                "redrive.queues.spare.http.url", "http://127.0.0.1:" + SPARE_PORT + "/jobs",
                "redrive.queues.refused.http.url", "http://127.0.0.1:" + RedisServer.freePort() + "/jobs");
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(downstream, new TestInjector.MatchesType(Downstream.class));
    }

    @Override
    public void stop() {
        if (downstream != null) {
            downstream.close();
        }
    }
}
