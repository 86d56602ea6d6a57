package dev.redrive.api;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import dev.redrive.redis.RedisProblems;
import io.vertx.core.VertxException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * Tells a Redis that can't serve right now (down, frozen, full, loading, failing over) from a
 * bug: the first is a 503 with Retry-After, which a client may retry; the second stays a 500.
 */
final class RedisFailures {

    /**
     * Error replies that say "not now" rather than "wrong": the first word of Redis' error text.
     * CONNECTION_CLOSED is the client's own: Vert.x fails the commands still waiting on a connection
     * that closed under them with an error reply of that name, not with an exception.
     */
    private static final Set<String> NOT_NOW = Set.of("OOM", "LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN",
            "CLUSTERDOWN", "READONLY", "NOREPLICAS", "MISCONF", "CONNECTION_CLOSED");

    /**
     * The client's own "not now" failures that are neither exceptions nor error replies: it fails a
     * command with bare text (a Throwable that is no Exception) when the pool hands out a connection
     * that has just closed (Redis killed a moment before) or when one connection has more commands
     * waiting than it takes. Right after Redis was killed, an API call got a 500 this way (CI, RedisOutageTest).
     */
    private static final Set<String> CLIENT_NOT_NOW = Set.of("Connection is closed", "Redis waiting queue is full");

    private RedisFailures() {
    }

    /**
     * Whether Redis answered WRONGTYPE: a key redrive reads or writes holds another type of value
     * (a person or another program wrote it). Scripts that write check their keys' types before the
     * first write, so a write refused this way changed nothing; either way it is the caller's 409,
     * not a bug's 500.
     */
    static boolean wrongType(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof Response reply && reply.type() == ResponseType.ERROR) {
                return e.getMessage() != null && e.getMessage().contains("WRONGTYPE");
            }
        }
        return false;
    }

    static boolean unavailable(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            // Jackson's exceptions are IOExceptions too, but say the service wrote or read JSON wrongly.
            if (e instanceof com.fasterxml.jackson.core.JacksonException) {
                return false;
            }
            if (e instanceof TimeoutException || e instanceof io.smallrye.mutiny.TimeoutException
                    || e instanceof IOException) {
                return true;
            }
            if (e instanceof Response reply && reply.type() == ResponseType.ERROR) {
                return NOT_NOW.contains(RedisProblems.code(e.getMessage()));
            }
            // The client's own failures: connection closed or refused, pool full of waiters.
            if (e instanceof VertxException
                    || e instanceof NoStackTraceThrowable && CLIENT_NOT_NOW.contains(e.getMessage())) {
                return true;
            }
        }
        return false;
    }
}
