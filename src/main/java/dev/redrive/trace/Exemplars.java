package dev.redrive.trace;

import java.util.Optional;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.prometheus.client.exemplars.DefaultExemplarSampler;
import io.prometheus.client.exemplars.ExemplarSampler;
import io.prometheus.client.exemplars.tracer.common.SpanContextSupplier;

/**
 * The exemplar sampler of /q/metrics: the current span's trace and span id on histogram buckets
 * and counters (the attempt's, see {@link AttemptSpan#run}). It takes the place of the one Quarkus'
 * Micrometer extension brings along with OpenTelemetry, which looks up the current context on
 * every recorded value, tracing on or off, and on an event loop's root context makes a new Vert.x
 * context to look in: with tracing off there is no sampler at all, so recording a job's time costs
 * what it did before tracing.
 */
@ApplicationScoped
public class Exemplars {

    @Produces
    @Singleton
    @Alternative
    @Priority(10)
    Optional<ExemplarSampler> exemplarSampler(Tracing tracing) {
        return tracing.on() ? Optional.of(new DefaultExemplarSampler(new CurrentSpan())) : Optional.empty();
    }

    private static final class CurrentSpan implements SpanContextSupplier {
        @Override
        public String getTraceId() {
            SpanContext c = Span.current().getSpanContext();
            return c.isValid() ? c.getTraceId() : null;
        }

        @Override
        public String getSpanId() {
            SpanContext c = Span.current().getSpanContext();
            return c.isValid() ? c.getSpanId() : null;
        }

        @Override
        public boolean isSampled() {
            return Span.current().getSpanContext().isSampled();
        }
    }
}
