package dev.redrive.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

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
}
