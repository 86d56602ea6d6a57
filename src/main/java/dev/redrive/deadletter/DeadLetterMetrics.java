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
        registry.counter("redrive.dlq.replayed", "dlq", deadLetters).increment();
    }

    public void discarded(String deadLetters) {
        registry.counter("redrive.dlq.discarded", "dlq", deadLetters).increment();
    }
}
