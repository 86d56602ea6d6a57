package dev.redrive.trace;

import java.lang.reflect.Field;
import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.job.Durations;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.quarkus.arc.All;
import io.quarkus.opentelemetry.runtime.config.runtime.BatchSpanProcessorConfig;
import io.quarkus.opentelemetry.runtime.config.runtime.OTelRuntimeConfig;
import io.quarkus.opentelemetry.runtime.exporter.otlp.tracing.LateBoundSpanProcessor;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;

/**
 * Puts {@link CountedSpans} where Quarkus' OTLP export runs. Quarkus builds its batch span processor
 * (sized by {@code quarkus.otel.bsp.*}) around an OTLP exporter it configures from
 * {@code quarkus.otel.exporter.otlp.*} (endpoint, protocol, headers, TLS, compression), and hands
 * it to the SDK inside a {@link LateBoundSpanProcessor} bean; neither offers a count of what it
 * drops (its metrics go to a no-op meter provider) nor a way in. So at start-up, before any queue
 * starts, that bean's delegate is replaced by the same processor, sized the same, around the same
 * exporter, with the counts added. This reads and writes one private field of Quarkus
 * ({@code delegate}): if a Quarkus upgrade renames it, tracing still works, uncounted, and a WARN
 * says so (SpanExportIT fails). The processor it replaces is left idle, not shut down: shutting it
 * down would close the exporter they share.
 */
@ApplicationScoped
public class SpanPipeline {

    private static final Logger LOG = Logger.getLogger(SpanPipeline.class);

    @Inject
    Tracing tracing;

    @Inject
    SpanLedger ledger;

    @Inject
    OTelRuntimeConfig otel;

    @Inject
    @All
    List<SpanProcessor> processors;

    @Inject
    Vertx vertx;

    /** Before the workers start (Workers observes at priority 10), so no queue's span escapes the count. */
    void onStart(@Observes @Priority(5) StartupEvent event) {
        if (!tracing.on()) {
            return;
        }
        for (SpanProcessor p : processors) {
            if (p instanceof LateBoundSpanProcessor late && !late.isDelegateNull()) {
                count(late);
            }
        }
        // Drops after the last WARN line are told once its interval is over, even when no more come.
        vertx.setPeriodic(Durations.toMillis(ledger.tailCheck()), t -> ledger.warnNowAndThen());
    }

    private void count(LateBoundSpanProcessor late) {
        try {
            Field delegate = LateBoundSpanProcessor.class.getDeclaredField("delegate");
            delegate.setAccessible(true);
            if (!(delegate.get(late) instanceof BatchSpanProcessor quarkus)) {
                return; // quarkus.otel.simple: each span exported as it ends, nothing queued to drop
            }
            BatchSpanProcessorConfig bsp = otel.bsp();
            BatchSettings settings = new BatchSettings(bsp.maxQueueSize(), bsp.maxExportBatchSize(),
                    bsp.scheduleDelay(), bsp.exportTimeout());
            SpanExporter exporter = ReusedRequests.around(quarkus.getSpanExporter(), CountedSpans.EXPORTS_IN_FLIGHT);
            delegate.set(late, new CountedSpans(ledger, exporter, settings));
            LOG.debugf("spans counted on their way to the collector: %s", settings);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warnf("spans are exported but not counted (redrive_trace_spans_* stay 0): Quarkus' span processor "
                    + "could not be wrapped (%s)", e.toString());
        }
    }
}
