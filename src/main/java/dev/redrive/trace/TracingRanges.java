package dev.redrive.trace;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;

/**
 * Refuses, at start-up and naming the property, a tracing setting the OpenTelemetry SDK cannot
 * take. It turns each duration into nanoseconds in a long, so a value past ~292 years stopped
 * start-up with nothing but "ArithmeticException: long overflow"; it allocates the export queue
 * whole, as a power of two, so a huge size stopped it with "no larger power of 2 int" or ran the
 * heap out; a zero or negative one got the SDK's own message, naming none of Quarkus' properties.
 * A configuration source only because that is what runs before Quarkus builds the SDK; it adds no
 * values. (Registered in META-INF/services beside {@link TracingSwitch}.)
 */
public class TracingRanges implements ConfigSourceFactory {

    /** The ones README's "Tracing" points operators at, and the exporters' time limits. */
    static final List<String> DURATIONS = List.of("quarkus.otel.bsp.schedule.delay", "quarkus.otel.bsp.export.timeout",
            "quarkus.otel.exporter.otlp.timeout", "quarkus.otel.exporter.otlp.traces.timeout");
    static final Duration MAX = Duration.ofHours(1);
    /** The batch processor's sizes, in spans: a million queued is ~750 MB of heap already (RUNBOOK, "Spans dropped"). */
    static final List<String> SIZES = List.of("quarkus.otel.bsp.max.queue.size", "quarkus.otel.bsp.max.export.batch.size");
    static final long MAX_SPANS = 1 << 20;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        for (String name : DURATIONS) {
            check(context, name, DurationConverter::parseDuration,
                    d -> !d.isNegative() && d.compareTo(MAX) <= 0, Duration.ZERO + " and " + MAX);
        }
        for (String name : SIZES) {
            check(context, name, Long::valueOf, n -> n >= 1 && n <= MAX_SPANS, "1 and " + MAX_SPANS);
        }
        return List.of();
    }

    private static <T> void check(ConfigSourceContext context, String name, Function<String, T> parse,
            Predicate<T> within, String range) {
        ConfigValue value = context.getValue(name);
        if (value == null || value.getValue() == null || value.getValue().isBlank()) {
            return;
        }
        String given = value.getValue().trim();
        T parsed;
        try {
            parsed = parse.apply(given);
        } catch (RuntimeException unparsable) {
            return; // Quarkus refuses it with its own message, naming the property
        }
        if (parsed != null && !within.test(parsed)) {
            throw new IllegalArgumentException("Invalid configuration: " + name + " must be between " + range
                    + " (got " + given + ")");
        }
    }
}
