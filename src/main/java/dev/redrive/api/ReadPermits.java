package dev.redrive.api;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import dev.redrive.config.InvalidConfigException;
import dev.redrive.config.RedriveConfig;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * How many reads of dead letters run at once ({@code redrive.reads.concurrent}). Each is bounded
 * in bytes by {@code redrive.reads}, so this bounds what all of them hold together: one more is
 * refused at once with 503 and Retry-After instead of queueing, since a queue of waiting viewers
 * is itself memory and time the caller can't see.
 */
@ApplicationScoped
public class ReadPermits {

    /** Seconds a refused reader is asked to wait: reads are short, one is likely free by then. */
    static final int RETRY_AFTER_SECONDS = 1;

    /** A read's 503s, for the OpenAPI document (a method's own 503 replaces the resource's). */
    static final String BUSY = "busy: redrive.reads.concurrent reads of dead letters are already in flight; or "
            + "redis-unavailable: Redis is down, full or slower than redrive.redis-timeout. Try again after "
            + "Retry-After seconds";

    private final Semaphore permits;
    private final Duration awaitLimit;

    @Inject
    public ReadPermits(RedriveConfig config) {
        RedriveConfig.Reads reads = config.reads();
        if (reads.concurrent() < 1) {
            throw new InvalidConfigException("redrive.reads.concurrent", "must be at least 1 (got " + reads.concurrent() + ")");
        }
        if (reads.valueBytes() < 1) {
            throw new InvalidConfigException("redrive.reads.value-bytes", "must be at least 1 (got " + reads.valueBytes() + ")");
        }
        if (reads.entryBytes() < reads.valueBytes()) {
            throw new InvalidConfigException("redrive.reads.entry-bytes",
                    "must be at least redrive.reads.value-bytes (" + reads.valueBytes() + "; got " + reads.entryBytes() + ")");
        }
        this.permits = new Semaphore(reads.concurrent());
        this.awaitLimit = config.redisTimeout().plus(Duration.ofSeconds(1));
    }

    /**
     * Waits for a read on a worker thread (the MCP tools, the console's proposal page): up to a
     * second past redrive.redis-timeout, so the read's own time limit answers first.
     */
    public <T> T await(Uni<T> read) {
        return read.await().atMost(awaitLimit);
    }

    /** Checks the limits at start-up rather than at the first read. */
    void onStart(@Observes StartupEvent event) {
        // Creating the bean ran the checks.
    }

    /** Runs the read holding a permit, released however it ends; without a free permit, fails with 503. */
    public <T> Uni<T> run(Supplier<Uni<T>> read) {
        // Taken on subscription, not before: a read that is never subscribed can't keep a permit.
        return Uni.createFrom().deferred(() -> {
            Permit permit = take();
            return Uni.createFrom().<T>deferred(read::get).onTermination().invoke(permit::release);
        });
    }

    /** A permit held until released (once, whichever of several endings comes first); 503 when none is free. */
    public Permit take() {
        if (!permits.tryAcquire()) {
            throw new Busy();
        }
        return new Permit();
    }

    /** The refusal: 503 problem+json with Retry-After. */
    @ServerExceptionMapper
    public Response busy(Busy e) {
        return Response.fromResponse(e.problem().response())
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS)).build();
    }

    /** No permit free. */
    static final class Busy extends ProblemException {

        Busy() {
            super(503, "busy", "Too many reads at once", "redrive.reads.concurrent reads of dead letters are in flight; "
                    + "try again in " + RETRY_AFTER_SECONDS + "s");
        }
    }

    /** One read's permit. */
    public final class Permit {

        private final AtomicBoolean held = new AtomicBoolean(true);

        public void release() {
            if (held.compareAndSet(true, false)) {
                permits.release();
            }
        }
    }
}
