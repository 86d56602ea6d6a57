package dev.redrive.testing;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Commands sent as they are to a test's own redis-server (script tests that run a Lua file by hand),
 * on the Vert.x Redis client redrive itself uses. The bench (bench/java) holds one on a single
 * connection ({@link #connect}), where it pipelines its seeding and its steady producer.
 */
public final class RawRedis implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx();
    private final Redis redis;
    private final RedisConnection connection; // null: the client's own pool
    private final long timeoutSeconds;

    public RawRedis(RedisServer server) {
        this.redis = Redis.createClient(vertx, server.url());
        this.connection = null;
        this.timeoutSeconds = 10;
    }

    private RawRedis(int port) throws Exception {
        this.redis = Redis.createClient(vertx, new RedisOptions().setConnectionString("redis://127.0.0.1:" + port)
                .setPreferredProtocolVersion(ProtocolVersion.RESP2).setMaxWaitingHandlers(1_000_000));
        this.connection = redis.connect().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        this.timeoutSeconds = 300;
    }

    /**
     * One connection (RESP2) to the redis-server on 127.0.0.1:{@code port}, as many commands in
     * flight as the caller sends, each reply awaited up to 5 minutes (a Lua loop staging a backlog).
     */
    public static RawRedis connect(int port) throws Exception {
        return new RawRedis(port);
    }

    public Response call(Object... args) throws Exception {
        Request request = Request.cmd(Command.create(args[0].toString()));
        for (int i = 1; i < args.length; i++) {
            request.arg(args[i].toString());
        }
        return send(request).toCompletionStage().toCompletableFuture().get(timeoutSeconds, TimeUnit.SECONDS);
    }

    /** Sends without waiting for the reply. */
    public Future<Response> send(Request request) {
        return connection != null ? connection.send(request) : redis.send(request);
    }

    /** The requests pipelined in one go, their replies in order. */
    public List<Response> batch(List<Request> requests) throws Exception {
        return (connection != null ? connection.batch(requests) : redis.batch(requests))
                .toCompletionStage().toCompletableFuture().get(timeoutSeconds, TimeUnit.SECONDS);
    }

    /** The Vert.x instance the client runs on (the bench's timers and HTTP servers share it). */
    public Vertx vertx() {
        return vertx;
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.close();
        }
        redis.close();
        vertx.close();
    }
}
