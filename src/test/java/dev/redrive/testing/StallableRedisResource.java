package dev.redrive.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Gives a @QuarkusTest its own redis-server that the test may freeze, fill or stop: the test
 * reaches it through {@link #server()}, as only one such test class runs at a time.
 */
public class StallableRedisResource implements QuarkusTestResourceLifecycleManager {

    private static volatile RedisServer server;

    public static RedisServer server() {
        return server;
    }

    /** Starts a new server on the port of the last one (after a test stopped it). */
    public static RedisServer restart() {
        server = new RedisServer(server.port()).start();
        return server;
    }

    @Override
    public Map<String, String> start() {
        server = new RedisServer().start();
        return Map.of("quarkus.redis.hosts", server.url());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
        }
    }
}
