package dev.redrive.trace;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * Whether redrive traces its work, and where its spans start: an attempt's ({@link QueueTracer},
 * one per queue) and a replay's ({@link #replay}, {@link #redriveStep}). Tracing is on when the
 * OpenTelemetry SDK is ({@code quarkus.otel.sdk.disabled=false}, which {@link TracingSwitch} makes
 * the default only when an OTLP endpoint is configured). When it is off every method here returns
 * null before it builds anything, so a job costs no allocation for tracing: callers test for null.
 */
@ApplicationScoped
public class Tracing {

    static final String INSTRUMENTATION = "dev.redrive";

    static final AttributeKey<String> DLQ = AttributeKey.stringKey("redrive.dlq");
    static final AttributeKey<String> DLQ_ENTRY = AttributeKey.stringKey("redrive.dlq.entry_id");
    static final AttributeKey<String> ACTOR = AttributeKey.stringKey("redrive.actor");
    static final AttributeKey<String> TASK = AttributeKey.stringKey("redrive.redrive.task");

    @Inject
    OpenTelemetry openTelemetry;

    @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false")
    boolean sdkDisabled;

    private volatile Tracer tracer;

    /** True when spans are made and exported. */
    public boolean on() {
        return !sdkDisabled;
    }

    private Tracer tracer() {
        Tracer t = tracer;
        if (t == null) {
            t = openTelemetry.getTracer(INSTRUMENTATION);
            tracer = t;
        }
        return t;
    }

    /** The attempt spans of one queue (its stream, read by its group), or null when tracing is off. */
    public QueueTracer forQueue(String stream, String group) {
        return on() ? new QueueTracer(tracer(), stream, group) : null;
    }

    /**
     * Starts the span of one replay, a child of the current context (the operator's API request),
     * or null when tracing is off. The replayed entry's {@code traceparent} is this span's.
     */
    public ReplaySpan replay(String deadLetters, String entryId, String actor) {
        if (!on()) {
            return null;
        }
        Span span = tracer().spanBuilder("replay " + deadLetters).setSpanKind(SpanKind.PRODUCER)
                .setParent(Context.current())
                .setAttribute(DLQ, deadLetters).setAttribute(DLQ_ENTRY, entryId).setAttribute(ACTOR, actor)
                .startSpan();
        return new ReplaySpan(span);
    }

    /** Starts the span of one step of a bulk redrive (a page of moves), or null when tracing is off. */
    public ReplaySpan redriveStep(String deadLetters, String task, String actor) {
        if (!on()) {
            return null;
        }
        Span span = tracer().spanBuilder("redrive " + deadLetters).setSpanKind(SpanKind.PRODUCER)
                .setParent(Context.current())
                .setAttribute(DLQ, deadLetters).setAttribute(TASK, task).setAttribute(ACTOR, actor)
                .startSpan();
        return new ReplaySpan(span);
    }
}
