package dev.redrive.observe;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.redis.BlockingReads;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/**
 * {@code redrive_readers_failing}: blocking readers that can't read now (connect, TLS handshake,
 * authentication or the read itself fails). Above 0, the new entries of their queues wait unread
 * while the pool may look healthy; the reader's WARN says what to fix.
 */
@Startup
@ApplicationScoped
public class ReaderMetrics {

    @Inject
    void register(MeterRegistry registry, BlockingReads reads) {
        Gauge.builder("redrive.readers.failing", reads, r -> r.failing().size())
                .description("Blocking readers that can't read now; their queues' new entries wait unread")
                .register(registry);
    }
}
