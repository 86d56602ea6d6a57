package dev.redrive.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.RedisServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.impl.types.ErrorType;

/**
 * What the API answers 503 (retry later) and what stays a 500 (a bug), for the failures the Redis
 * client really raises: its error replies are Throwables, including the one it makes up itself
 * when a connection closes under waiting commands (seen as a 500 under load before).
 */
class RedisFailuresTest {

    @Test
    void aConnectionClosedUnderACommandIsNotNow() {
        assertTrue(RedisFailures.unavailable(ErrorType.create("CONNECTION_CLOSED")));
        assertTrue(RedisFailures.unavailable(new CompletionException(ErrorType.create("CONNECTION_CLOSED"))));
    }

    @Test
    void redisSayingNotNowIsNotNow() {
        assertTrue(RedisFailures.unavailable(ErrorType.create("OOM command not allowed when used memory > 'maxmemory'.")));
        assertTrue(RedisFailures.unavailable(ErrorType.create("LOADING Redis is loading the dataset in memory")));
    }

    @Test
    void redisSayingWrongStaysABug() {
        assertFalse(RedisFailures.unavailable(ErrorType.create("ERR unknown command 'FOO'")));
        assertFalse(RedisFailures.unavailable(ErrorType.create("WRONGTYPE Operation against a key holding the wrong kind of value")));
        assertFalse(RedisFailures.unavailable(new IllegalStateException("a bug")));
    }

    /**
     * A connection that closed a moment ago (Redis killed): the client fails the next command on it
     * with bare text, not an exception. CI saw a 500 for it right after RedisOutageTest's kill.
     */
    @Test
    void aCommandOnAConnectionThatJustClosedIsNotNow() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (RedisServer server = new RedisServer().start()) {
            RedisConnection connection = await(Redis.createClient(vertx, server.url()).connect());
            CompletableFuture<Void> closed = new CompletableFuture<>();
            connection.endHandler(v -> closed.complete(null));
            server.kill();
            closed.get(10, TimeUnit.SECONDS);
            Throwable failure = failure(connection.send(Request.cmd(io.vertx.redis.client.Command.PING)));
            assertEquals("Connection is closed", failure.getMessage(), "the client's own words for it");
            assertTrue(RedisFailures.unavailable(failure));
            assertTrue(RedisFailures.unavailable(new CompletionException(failure)));
        } finally {
            vertx.close();
        }
    }

    /** More commands waiting on one connection than it takes (a frozen Redis): the client says so in bare text. */
    @Test
    void aConnectionWithTooManyWaitingCommandsIsNotNow() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (RedisServer server = new RedisServer().start()) {
            RedisConnection connection = await(Redis.createClient(vertx,
                    new RedisOptions().setConnectionString(server.url()).setMaxWaitingHandlers(1)).connect());
            server.pause();
            try {
                connection.send(Request.cmd(io.vertx.redis.client.Command.PING));
                Throwable failure = failure(connection.send(Request.cmd(io.vertx.redis.client.Command.PING)));
                assertEquals("Redis waiting queue is full", failure.getMessage(), "the client's own words for it");
                assertTrue(RedisFailures.unavailable(failure));
            } finally {
                server.resume();
            }
        } finally {
            vertx.close();
        }
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static Throwable failure(Future<?> future) throws Exception {
        CompletableFuture<Throwable> failed = new CompletableFuture<>();
        future.onComplete(done -> failed.complete(done.cause()));
        Throwable failure = failed.get(10, TimeUnit.SECONDS);
        assertTrue(failure != null, "the command failed");
        return failure;
    }
}
