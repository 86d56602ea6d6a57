package dev.redrive.deadletter;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;

/** Counts what operators do to dead letters, tagged by dead-letter stream only (a handful of values). */
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

    public void discarded(String deadLetters) {
        registry.counter("redrive.dlq.discarded", "dlq", deadLetters).increment();
    }
}
