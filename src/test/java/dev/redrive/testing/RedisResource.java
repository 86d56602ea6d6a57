package dev.redrive.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** Gives a @QuarkusTest its own redis-server. */
public class RedisResource implements QuarkusTestResourceLifecycleManager {

    private RedisServer server;

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
