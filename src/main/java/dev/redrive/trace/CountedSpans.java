package dev.redrive.trace;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The SDK's batch span processor with every span accounted for in the {@link SpanLedger}. The
 * processor drops a span when its queue is full and tells no one; here a span is admitted only
 * while fewer than {@code capacity} spans are queued or being exported (counted from the span's
 * end to its export's answer), else counted as dropped. The processor's own queue is as large, so
 * it never drops one itself: every admitted span is counted exported or failed when its batch's
 * export answers.
 */
final class CountedSpans implements SpanProcessor {

    private final SpanLedger ledger;
    private final int capacity;
    private final AtomicInteger admitted = new AtomicInteger();
    private final SpanProcessor batch;

    CountedSpans(SpanLedger ledger, SpanExporter exporter, BatchSettings settings) {
        this.ledger = ledger;
        this.capacity = settings.maxQueueSize();
        this.batch = BatchSpanProcessor.builder(new Counting(exporter))
                .setMaxQueueSize(settings.maxQueueSize())
                .setMaxExportBatchSize(settings.maxExportBatchSize())
                .setScheduleDelay(settings.scheduleDelay())
                .setExporterTimeout(settings.exportTimeout())
                .build();
    }

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
    }

    @Override
    public boolean isStartRequired() {
        return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {
        if (!span.getSpanContext().isSampled()) {
            return; // the batch processor exports sampled spans only
        }
        ledger.ended();
        if (admitted.incrementAndGet() > capacity) {
            admitted.decrementAndGet();
            ledger.dropped(SpanLedger.QUEUE_FULL, 1);
            return;
        }
        batch.onEnd(span);
    }

    @Override
    public boolean isEndRequired() {
        return true;
    }

    @Override
    public CompletableResultCode shutdown() {
        return batch.shutdown();
    }

    @Override
    public CompletableResultCode forceFlush() {
        return batch.forceFlush();
    }

    /** Counts each batch when its export answers (also after the processor stopped waiting for it). */
    private final class Counting implements SpanExporter {
        private final SpanExporter exporter;

        Counting(SpanExporter exporter) {
            this.exporter = exporter;
        }

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            int n = spans.size();
            CompletableResultCode result;
            try {
                result = exporter.export(spans);
            } catch (RuntimeException e) {
                answered(false, n);
                throw e;
            }
            result.whenComplete(() -> answered(result.isSuccess(), n));
            return result;
        }

        private void answered(boolean success, int n) {
            admitted.addAndGet(-n);
            if (success) {
                ledger.exported(n);
            } else {
                ledger.dropped(SpanLedger.EXPORT_FAILED, n);
            }
        }

        @Override
        public CompletableResultCode flush() {
            return exporter.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return exporter.shutdown();
        }
    }
}
