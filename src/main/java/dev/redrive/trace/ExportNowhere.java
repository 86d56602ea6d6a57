package dev.redrive.trace;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.quarkus.arc.Unremovable;
import io.quarkus.opentelemetry.runtime.AutoConfiguredOpenTelemetrySdkBuilderCustomizer;

/**
 * Keeps the SDK from batching every span for its no-op exporter. Besides Quarkus' OTLP processor
 * (the one {@link SpanPipeline} counts), the SDK's autoconfiguration builds a batch span processor
 * for the exporters {@code otel.traces.exporter} names; Quarkus names {@code cdi}, the composite of
 * every {@code SpanExporter} bean. redrive has none (only the test boot's in-memory exporter), so
 * that processor got the SDK's no-op exporter and still took every sampled span: a third queue
 * (2,048 long: it is not given {@code quarkus.otel.bsp.max.queue.size}, hence the start-up line
 * "maxExportBatchSize should not exceed maxQueueSize"), its own worker thread and a copy of each
 * span it could take, for nothing (bench/README, issue 27). With no {@code SpanExporter} bean the
 * SDK is told {@code otel.traces.exporter=none}, which builds no processor; Quarkus' OTLP export
 * does not depend on it.
 */
@ApplicationScoped
@Unremovable
public class ExportNowhere implements AutoConfiguredOpenTelemetrySdkBuilderCustomizer {

    static final String EXPORTER = "otel.traces.exporter";

    @Inject
    @Any
    Instance<SpanExporter> exporters;

    @Override
    public void customize(AutoConfiguredOpenTelemetrySdkBuilder builder) {
        boolean beans = !exporters.isUnsatisfied();
        builder.addPropertiesCustomizer(config -> overrides(config, beans));
    }

    /** {@code otel.traces.exporter=none} when it names only Quarkus' {@code cdi} and there is no exporter bean. */
    static Map<String, String> overrides(ConfigProperties config, boolean exporterBeans) {
        return !exporterBeans && "cdi".equals(config.getString(EXPORTER)) ? Map.of(EXPORTER, "none") : Map.of();
    }
}
