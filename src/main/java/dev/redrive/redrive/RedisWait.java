package dev.redrive.redrive;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.RedriveConfig;
import io.smallrye.mutiny.Uni;

/**
 * The one place bulk redrives block on Redis, each wait bounded by {@code redrive.redis-timeout}.
 * Blocking is right here: runners have threads of their own, and the REST resource runs on worker
 * threads ({@code @Blocking}). A wait that runs out fails like any Redis failure: the API answers
 * 503, a runner stops and its task resumes once its lease has run out.
 */
@ApplicationScoped
class RedisWait {

    @Inject
    RedriveConfig config;

    <T> T on(Uni<T> pending) {
        return pending.await().atMost(config.redisTimeout());
    }

    /** Sends the command now and lets the caller wait for it later ({@link #on(CompletableFuture)}). */
    <T> CompletableFuture<T> send(Uni<T> command) {
        return command.subscribeAsCompletionStage();
    }

    <T> T on(CompletableFuture<T> sent) throws InterruptedException {
        try {
            return sent.get(config.redisTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new io.smallrye.mutiny.TimeoutException();
        }
    }
}
