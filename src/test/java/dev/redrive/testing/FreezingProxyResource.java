package dev.redrive.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Gives a @QuarkusTest its own redis-server behind a {@link FreezingProxy}: the service talks to
 * the proxy, the test to the server directly ({@link #server()}), as only one such class runs at a time.
 */
public class FreezingProxyResource implements QuarkusTestResourceLifecycleManager {

    private static volatile RedisServer server;
    private static volatile FreezingProxy proxy;

    public static RedisServer server() {
        return server;
    }

    public static FreezingProxy proxy() {
        return proxy;
    }

    @Override
    public Map<String, String> start() {
        server = new RedisServer().start();
        proxy = new FreezingProxy(server.port());
        return Map.of("quarkus.redis.hosts", proxy.url());
    }

    @Override
    public void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (server != null) {
            server.close();
        }
    }
}
