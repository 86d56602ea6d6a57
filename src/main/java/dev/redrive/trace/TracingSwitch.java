package dev.redrive.trace;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Turns tracing off unless an OTLP endpoint is configured: Quarkus' own default is on, exporting
 * to localhost:4317, which on a machine without a collector means an error in the log every few
 * seconds and a span built for every job for nothing. This only supplies a default for
 * {@code quarkus.otel.sdk.disabled}, below every configured source: the standard
 * {@code OTEL_SDK_DISABLED}, {@code QUARKUS_OTEL_SDK_DISABLED} or the property itself win.
 * (Registered in META-INF/services, read once at start-up.)
 */
public class TracingSwitch implements ConfigSourceFactory {

    static final String SDK_DISABLED = "quarkus.otel.sdk.disabled";
    static final List<String> ENDPOINTS = List.of("quarkus.otel.exporter.otlp.endpoint",
            "quarkus.otel.exporter.otlp.traces.endpoint");
    /** Below application.properties (250) and the environment (300). */
    private static final int ORDINAL = 50;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        String standard = System.getenv("OTEL_SDK_DISABLED");
        String disabled = standard != null && !standard.isBlank() ? standard.trim()
                : Boolean.toString(ENDPOINTS.stream().noneMatch(name -> configured(context, name)));
        return List.of(new PropertiesConfigSource(Map.of(SDK_DISABLED, disabled), "redrive tracing default", ORDINAL));
    }

    @Override
    public OptionalInt getPriority() {
        return OptionalInt.of(ORDINAL);
    }

    private static boolean configured(ConfigSourceContext context, String name) {
        try {
            ConfigValue value = context.getValue(name);
            return value != null && value.getValue() != null && !value.getValue().isBlank();
        } catch (RuntimeException unresolvable) {
            return false;
        }
    }
}
