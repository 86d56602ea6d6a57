package dev.redrive.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;

/**
 * The span of a replay (one entry) or of a bulk redrive's step (a page of entries). Its
 * traceparent goes into every entry it writes back, so the replayed job's first attempt links to
 * it; it links to the last attempt of each job it sends back, as the dead-letter record names it.
 */
public final class ReplaySpan {

    private static final AttributeKey<Long> MOVED = AttributeKey.longKey("redrive.replayed");

    private final Span span;
    private final String traceparent;

    ReplaySpan(Span span) {
        this.span = span;
        this.traceparent = Traceparent.of(span.getSpanContext());
    }

    /** What the replayed entries carry as {@code traceparent}. */
    public String traceparent() {
        return traceparent;
    }

    /** Links this span to a parked job's last attempt (its record's traceparent); ignored when there is none. */
    public void linkTo(String parkedAttempt) {
        SpanContext attempt = Traceparent.parse(parkedAttempt);
        if (attempt != null) {
            span.addLink(attempt);
        }
    }

    /** Ends the span: {@code replayed} entries went back (0 when nothing did). */
    public void end(long replayed) {
        span.setAttribute(MOVED, replayed);
        span.end();
    }

    /** Ends the span of a replay that failed or was refused. */
    public void fail(Throwable error) {
        span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
        span.setAttribute(QueueTracer.ERROR_TYPE, error.getClass().getName());
        span.end();
    }
}
