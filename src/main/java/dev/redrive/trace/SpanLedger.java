package dev.redrive.trace;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import jakarta.inject.Singleton;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.job.Durations;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/**
 * Where every sampled span goes, counted: ended by redrive (and handed to the export), exported
 * (the collector accepted it), or dropped, by reason: {@link #QUEUE_FULL} (the export queue was
 * full: spans end faster than the exporter sends them) or {@link #EXPORT_FAILED} (the collector
 * refused the batch, did not answer in time, or could not be reached). Once the queue is empty,
 * ended = exported + dropped. A drop is logged at WARN at most once per {@link DropWarnings}
 * interval (a minute by default), with how many and what to change (RUNBOOK, "Spans dropped").
 */
// At start-up, so the counters are scraped at 0 with tracing off too (the alert rules and
// dashboards read them whether or not this process traces). A singleton, not application-scoped:
// the export counts it once per span, and a client proxy's scope lookup on each call cost ~8% of
// the extra event-loop CPU of a traced job (JFR, issue 27).
@Startup
@Singleton
public class SpanLedger {

    public static final String QUEUE_FULL = "queue_full";
    public static final String EXPORT_FAILED = "export_failed";
    private static final Logger LOG = Logger.getLogger(SpanLedger.class);
    /** Longest a drop after the last line waits past its interval to be told when no more come (a timer's period). */
    private static final Duration TAIL_CHECK = Duration.ofSeconds(10);

    private final Duration warnEvery;
    private final long warnEveryNanos;

    private final LongAdder ended = new LongAdder();
    private final LongAdder exported = new LongAdder();
    private final LongAdder queueFull = new LongAdder();
    private final LongAdder exportFailed = new LongAdder();
    /** Drops already told in a WARN line, and when the last one was written. */
    private final AtomicLong warnedQueueFull = new AtomicLong();
    private final AtomicLong warnedExportFailed = new AtomicLong();
    private final AtomicLong lastWarn;

    @Inject
    public SpanLedger(MeterRegistry registry, DropWarnings warnings) {
        warnEvery = warnings.interval();
        warnEveryNanos = TimeUnit.MILLISECONDS.toNanos(Durations.toMillis(warnEvery)); // both saturate
        lastWarn = new AtomicLong(System.nanoTime() - warnEveryNanos); // the first drop is told at once
        counter(registry, "redrive.trace.spans.ended", "Sampled spans ended and handed to the export", ended);
        counter(registry, "redrive.trace.spans.exported", "Spans the OTLP collector accepted", exported);
        FunctionCounter.builder("redrive.trace.spans.dropped", queueFull, LongAdder::sum)
                .description("Spans lost before the collector: the export queue was full, or the export failed")
                .tag("reason", QUEUE_FULL).register(registry);
        FunctionCounter.builder("redrive.trace.spans.dropped", exportFailed, LongAdder::sum)
                .description("Spans lost before the collector: the export queue was full, or the export failed")
                .tag("reason", EXPORT_FAILED).register(registry);
    }

    private static void counter(MeterRegistry registry, String name, String description, LongAdder value) {
        FunctionCounter.builder(name, value, LongAdder::sum).description(description).register(registry);
    }

    void ended() {
        ended.increment();
    }

    void exported(int spans) {
        exported.add(spans);
    }

    void dropped(String reason, int spans) {
        (QUEUE_FULL.equals(reason) ? queueFull : exportFailed).add(spans);
        warnNowAndThen();
    }

    /** How often {@link #warnNowAndThen} is called by a timer, for the tail: at most the interval. */
    Duration tailCheck() {
        return Durations.min(warnEvery, TAIL_CHECK);
    }

    /** Writes the WARN line when the interval has passed since the last one (also called by a timer, for the tail). */
    void warnNowAndThen() {
        long now = System.nanoTime();
        long last = lastWarn.get();
        if (now - last < warnEveryNanos || !lastWarn.compareAndSet(last, now)) {
            return;
        }
        // Each count read once: a drop between two reads would be marked told without being in a line.
        long fullNow = queueFull.sum();
        long failedNow = exportFailed.sum();
        long full = fullNow - warnedQueueFull.getAndSet(fullNow);
        long failed = failedNow - warnedExportFailed.getAndSet(failedNow);
        if (full == 0 && failed == 0) {
            lastWarn.set(last); // nothing to tell: the next drop may warn at once
            return;
        }
        if (full > 0) {
            LOG.warnf("dropped %d spans since the last warning: the export queue was full (spans end faster than the "
                    + "exporter sends them); raise quarkus.otel.bsp.max.queue.size or max.export.batch.size, lower "
                    + "OTEL_TRACES_SAMPLER_ARG, or give the collector more room (RUNBOOK, \"Spans dropped\")", full);
        }
        if (failed > 0) {
            LOG.warnf("dropped %d spans since the last warning: the OTLP collector refused or did not answer their "
                    + "export; check OTEL_EXPORTER_OTLP_ENDPOINT and the collector's health and limits (RUNBOOK, "
                    + "\"Spans dropped\")", failed);
        }
    }
}
