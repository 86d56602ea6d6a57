package dev.redrive.testing;

import java.util.concurrent.TimeUnit;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/** Commands sent as they are to a test's own redis-server (script tests that run a Lua file by hand). */
public final class RawRedis implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx();
    private final Redis redis;

    public RawRedis(RedisServer server) {
        this.redis = Redis.createClient(vertx, server.url());
    }

    public Response call(Object... args) throws Exception {
        Request request = Request.cmd(Command.create(args[0].toString()));
        for (int i = 1; i < args.length; i++) {
            request.arg(args[i].toString());
        }
        return redis.send(request).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        redis.close();
        vertx.close();
    }
}
