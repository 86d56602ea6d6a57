package dev.redrive.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;

/**
 * One attempt's span ({@link QueueTracer}): current while the handler runs, so the handler's own
 * spans (the outbound HTTP call, a Java handler's work) nest in it, log lines carry its ids and
 * metrics recorded in {@link #run} carry it as an exemplar; ended with the attempt's outcome. Used
 * by one attempt at a time (its handler call, then its outcome), never concurrently.
 */
public final class AttemptSpan {

    public static final String DONE = "done";
    public static final String RETRY_LATER = "retry-later";
    public static final String PARKED = "parked";
    public static final String RELEASED = "released";

    private final Span span;
    private final Context context;
    private String traceparent;
    /** The Vert.x context of this attempt's handler alone, where the span is current (see {@link #runHandler}). */
    private io.vertx.core.Context own;
    /** The context {@link #runHandler} was called on, where {@link #release} goes back to. */
    private ContextInternal caller;
    /** True while {@link #runHandler}'s dispatch runs: a handler that answers at once is released after it. */
    private boolean dispatching;
    /** What {@link #release} was given while {@link #dispatching}: run when the dispatch returns. */
    private Runnable afterDispatch;

    AttemptSpan(Span span) {
        this.span = span;
        this.context = Context.root().with(span);
    }

    /** This attempt's traceparent: what the record of a job parked from it keeps. */
    public String traceparent() {
        if (traceparent == null) {
            traceparent = Traceparent.of(span.getSpanContext());
        }
        return traceparent;
    }

    /**
     * Runs the handler's call with the span current: on a Vert.x thread, on a duplicated context of
     * this attempt's own, where what the handler started (an HTTP call's answer, its own spans)
     * still sees the span after {@code call} returns. Quarkus keeps the OpenTelemetry context and
     * the log's MDC in a duplicated context's locals, so the span can't be made current on the event
     * loop's root context itself (see QuarkusContextStorage). The context is the attempt's alone,
     * so the span is never taken off it: nothing else runs there after {@link #release}.
     */
    public void runHandler(Runnable call) {
        io.vertx.core.Context current = Vertx.currentContext();
        if (current == null) {
            try (var scope = context.makeCurrent()) {
                call.run();
            }
            return;
        }
        ContextInternal attempt = ((ContextInternal) current).duplicate();
        own = attempt;
        caller = (ContextInternal) current;
        dispatching = true;
        try {
            attempt.dispatch(v -> {
                context.makeCurrent(); // never closed: see above
                call.run();
            });
        } finally {
            dispatching = false;
        }
        Runnable next = afterDispatch;
        if (next != null) {
            // The handler answered inside the dispatch (a Java handler's completed Uni): back on the
            // caller's context already, so what follows runs here rather than in a second dispatch.
            afterDispatch = null;
            next.run();
        }
    }

    /**
     * Runs what follows the handler (the outcome's writes, which batch many jobs' acks) back on the
     * context the attempt was started from, without the span: as untraced, and so that a batch is
     * not charged to whichever attempt happened to add to it last. Each step that wants the span
     * current again (a failure's log line, an exemplar) asks {@link #run}.
     */
    public void release(Runnable next) {
        ContextInternal back = caller;
        if (back != null && Vertx.currentContext() == own) {
            own = null;
            if (dispatching) {
                afterDispatch = next;
                return;
            }
            back.dispatch(v -> next.run());
        } else {
            own = null;
            next.run();
        }
    }

    /** Runs {@code body} with the span current (and its ids in the log's MDC). */
    public void run(Runnable body) {
        io.vertx.core.Context current = Vertx.currentContext();
        if (current != null && current == own) {
            body.run();
        } else if (current == null) {
            try (var scope = context.makeCurrent()) {
                body.run();
            }
        } else {
            ((ContextInternal) current).duplicate().dispatch(v -> {
                try (var scope = context.makeCurrent()) {
                    body.run();
                }
            });
        }
    }

    /**
     * Ends the span with the attempt's outcome ({@link #DONE}, {@link #RETRY_LATER},
     * {@link #PARKED}, {@link #RELEASED}) and, for a failed attempt, its error type and reason.
     */
    public void end(String outcome, String errorType, String reason) {
        if (!span.isRecording()) {
            span.end();
            return;
        }
        span.setAttribute(QueueTracer.OUTCOME, outcome);
        if (errorType != null) {
            span.setAttribute(QueueTracer.ERROR_TYPE, errorType);
            span.setStatus(StatusCode.ERROR, reason == null ? "" : reason);
        }
        span.end();
    }
}
