package dev.redrive.trace;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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
 * <p>
 * Up to {@link #EXPORTS_IN_FLIGHT} batches are exported at once. The SDK's processor waits for
 * each export's answer before it takes the next batch; with the OTLP exporters the export is two
 * steps on two threads (the request built from the spans on the processor's thread, then written
 * and answered on an event loop), so one at a time leaves each thread idle half the time, and at a
 * fully traced drain the queue filled behind it (issue 27: 17% of spans dropped on a quiet box).
 * Here the processor is told at once that its batch is handed over, and takes the next while the
 * last is still on the wire; a third waits for one of the two to answer (at most the export
 * timeout, after which the batch is counted as failed), so what is held stays bounded by the
 * queue's capacity, as before.
 */
final class CountedSpans implements SpanProcessor {

    static final int EXPORTS_IN_FLIGHT = 2;

    private final SpanLedger ledger;
    private final int capacity;
    private final AtomicInteger admitted = new AtomicInteger();
    private final SpanProcessor batch;
    private final Counting counting;

    CountedSpans(SpanLedger ledger, SpanExporter exporter, BatchSettings settings) {
        this.ledger = ledger;
        this.capacity = settings.maxQueueSize();
        this.counting = new Counting(exporter, settings.exportTimeout().toNanos());
        this.batch = BatchSpanProcessor.builder(counting)
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
        CompletableResultCode done = new CompletableResultCode();
        CompletableResultCode queued = batch.forceFlush();
        // the processor's flush ends when its last batch is handed over: wait for the answers too
        queued.whenComplete(() -> counting.flush().whenComplete(() -> {
            if (queued.isSuccess()) {
                done.succeed();
            } else {
                done.fail();
            }
        }));
        return done;
    }

    /**
     * Counts each batch when its export answers (also after the processor stopped waiting for it),
     * with at most {@link #EXPORTS_IN_FLIGHT} unanswered.
     */
    private final class Counting implements SpanExporter {
        private final SpanExporter exporter;
        private final long timeoutNanos;
        private final Semaphore slots = new Semaphore(EXPORTS_IN_FLIGHT);
        private final Set<CompletableResultCode> unanswered = ConcurrentHashMap.newKeySet();

        Counting(SpanExporter exporter, long timeoutNanos) {
            this.exporter = exporter;
            this.timeoutNanos = timeoutNanos;
        }

        /** On the processor's thread: hands the batch over and returns, unless both slots are taken. */
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            int n = spans.size();
            if (!slot()) {
                answered(false, n); // neither export in flight answered within the export timeout
                return CompletableResultCode.ofFailure();
            }
            CompletableResultCode result;
            try {
                // a copy: the processor clears its batch list as soon as this returns
                result = exporter.export(List.copyOf(spans));
            } catch (RuntimeException e) {
                slots.release();
                answered(false, n);
                throw e;
            }
            unanswered.add(result);
            result.whenComplete(() -> {
                unanswered.remove(result);
                slots.release();
                answered(result.isSuccess(), n);
            });
            return CompletableResultCode.ofSuccess();
        }

        private boolean slot() {
            try {
                return slots.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        private void answered(boolean success, int n) {
            admitted.addAndGet(-n);
            if (success) {
                ledger.exported(n);
            } else {
                ledger.dropped(SpanLedger.EXPORT_FAILED, n);
            }
        }

        /** Done when every export handed over so far has answered. */
        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofAll(List.copyOf(unanswered));
        }

        /**
         * Shuts the exporter down once the exports in flight have answered (each has the exporter's
         * own time limit), without holding the thread that asks: shutting the exporter down first
         * would cut their answers off, and they would be counted as failed.
         */
        @Override
        public CompletableResultCode shutdown() {
            CompletableResultCode done = new CompletableResultCode();
            flush().whenComplete(() -> exporter.shutdown().whenComplete(done::succeed));
            return done;
        }
    }
}
