package dev.redrive.config;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** The outbound call of a queue with {@code handler=http} ({@code redrive.queues.<name>.http}). */
public interface HttpConfig {
    /** Where each job is POSTed. Required for {@code handler=http}. */
    Optional<String> url();

    /** Budget of one outbound call, connection included. Defaults to 10s. */
    @WithDefault("10s")
    Duration timeout();

    /** Outbound calls in flight at once; further jobs wait in the queue's own concurrency. Defaults to 64. */
    @WithDefault("64")
    int bulkhead();

    /** The circuit breaker on the outbound call. */
    @WithName("circuit-breaker")
    CircuitBreaker circuitBreaker();

    interface CircuitBreaker {
        /** Calls in the rolling window. Defaults to 20. */
        @WithDefault("20")
        int window();

        /** Share of failed calls in the window that opens the circuit. Defaults to 0.5. */
        @WithDefault("0.5")
        double failureRatio();

        /** How long the circuit stays open before a probe. Defaults to 5s. */
        @WithDefault("5s")
        Duration delay();
    }
}
