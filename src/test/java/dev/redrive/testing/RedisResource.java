package dev.redrive.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Gives a Quarkus boot its own redis-server (every test profile lists it). A test may freeze, fill
 * or stop that server through {@link #server()}, as one boot runs at a time; with the init
 * argument {@code proxy=freezing} the service talks to it through a {@link FreezingProxy}
 * ({@link #proxy()}), so a test can freeze the service's connections while it reaches Redis directly.
 */
public class RedisResource implements QuarkusTestResourceLifecycleManager {

    /** The init argument that puts a {@link FreezingProxy} between the service and its Redis. */
    public static final String PROXY = "proxy";

    private static volatile RedisServer server;
    private static volatile FreezingProxy proxy;
    private boolean proxied;

    /** The running boot's redis-server. */
    public static RedisServer server() {
        return server;
    }

    /** The proxy in front of it, in a boot that asked for one. */
    public static FreezingProxy proxy() {
        return proxy;
    }

    /** Starts a new, empty server on the port of the last one (after a test stopped it). */
    public static RedisServer restart() {
        server = new RedisServer(server.port()).start();
        return server;
    }

    @Override
    public void init(Map<String, String> initArgs) {
        proxied = "freezing".equals(initArgs.get(PROXY));
    }

    @Override
    public Map<String, String> start() {
        server = new RedisServer().start();
        if (!proxied) {
            return Map.of("quarkus.redis.hosts", server.url());
        }
        proxy = new FreezingProxy(server.port());
        return Map.of("quarkus.redis.hosts", proxy.url());
    }

    @Override
    public void stop() {
        if (proxy != null) {
            proxy.close();
            proxy = null;
        }
        if (server != null) {
            server.close();
        }
    }
}
