package dev.redrive.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.vertx.redis.client.Response;

/**
 * A script test class's own redis-server, started before the class's {@code @BeforeAll} methods
 * and stopped after its last test: {@code @RegisterExtension static final ScriptRedis redis = new
 * ScriptRedis();}, then {@code redis.call("XADD", ...)}.
 */
public final class ScriptRedis implements BeforeAllCallback, AfterAllCallback {

    private RedisServer server;
    private RawRedis raw;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = new RedisServer().start();
        raw = new RawRedis(server);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        raw.close();
        server.close();
    }

    /** Sends a command as it is; its reply. */
    public Response call(Object... args) throws Exception {
        return raw.call(args);
    }
}
