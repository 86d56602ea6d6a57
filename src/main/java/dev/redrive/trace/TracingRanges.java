package dev.redrive.trace;

import java.time.Duration;
import java.util.List;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;

/**
 * Refuses, at start-up and naming the property, a tracing duration the OpenTelemetry SDK cannot
 * take: it turns each into nanoseconds in a long, so a value past ~292 years stopped start-up with
 * nothing but "ArithmeticException: long overflow", and a negative one with the SDK's own message.
 * A configuration source only because that is what runs before Quarkus builds the SDK; it adds no
 * values. (Registered in META-INF/services beside {@link TracingSwitch}.)
 */
public class TracingRanges implements ConfigSourceFactory {

    /** The ones README's "Tracing" points operators at, and the exporters' time limits. */
    static final List<String> DURATIONS = List.of("quarkus.otel.bsp.schedule.delay", "quarkus.otel.bsp.export.timeout",
            "quarkus.otel.exporter.otlp.timeout", "quarkus.otel.exporter.otlp.traces.timeout");
    static final Duration MAX = Duration.ofHours(1);

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        for (String name : DURATIONS) {
            ConfigValue value = context.getValue(name);
            if (value == null || value.getValue() == null || value.getValue().isBlank()) {
                continue;
            }
            Duration parsed;
            try {
                parsed = DurationConverter.parseDuration(value.getValue().trim());
            } catch (RuntimeException unparsable) {
                continue; // Quarkus refuses it with its own message, naming the property
            }
            if (parsed != null && (parsed.isNegative() || parsed.compareTo(MAX) > 0)) {
                throw new IllegalArgumentException("Invalid configuration: " + name + " must be between " + Duration.ZERO + " and " + MAX
                        + " (got " + value.getValue().trim() + ")");
            }
        }
        return List.of();
    }
}
