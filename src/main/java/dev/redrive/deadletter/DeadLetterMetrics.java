package dev.redrive.deadletter;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts what operators do to dead letters, tagged by dead-letter stream only (a handful of
 * values), and the jobs that could not be parked, by queue and reason.
 */
@ApplicationScoped
public class DeadLetterMetrics {

    @Inject
    MeterRegistry registry;

    public void replayed(String deadLetters) {
        replayed(deadLetters, 1);
    }

    public void replayed(String deadLetters, long n) {
        registry.counter("redrive.dlq.replayed", "dlq", deadLetters).increment(n);
    }

    /** A job that was due to be parked and stays pending instead; {@code reason} is a short code. */
    public void unparked(String queue, String reason) {
        registry.counter("redrive.jobs.unparked", "queue", queue, "reason", reason).increment();
    }

    /** Registers the queue's {@link #unparked} counters at zero. */
    public void expectUnparked(String queue, List<String> reasons) {
        reasons.forEach(reason -> registry.counter("redrive.jobs.unparked", "queue", queue, "reason", reason));
    }

    public void discarded(String deadLetters) {
        registry.counter("redrive.dlq.discarded", "dlq", deadLetters).increment();
    }
}
