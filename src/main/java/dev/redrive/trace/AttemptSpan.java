package dev.redrive.trace;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;

import dev.redrive.job.Job;

/**
 * One attempt's span ({@link QueueTracer}): current while the handler runs, so the handler's own
 * spans (the outbound HTTP call, a Java handler's work) nest in it, log lines carry its ids and
 * metrics recorded in {@link #run} carry it as an exemplar; ended with the attempt's outcome.
 */
public final class AttemptSpan {

    public static final String DONE = "done";
    public static final String RETRY_LATER = "retry-later";
    public static final String PARKED = "parked";
    public static final String RELEASED = "released";

    private final Span span;
    private final Context context;
    private final String traceparent;
    private final Job job;
    /** The Vert.x context of this attempt alone, on which the span stays current (see {@link #run}). */
    private io.vertx.core.Context own;

    AttemptSpan(Span span, Job job) {
        this.span = span;
        this.context = Context.root().with(span);
        this.traceparent = Traceparent.of(span.getSpanContext());
        this.job = job;
    }

    /** This attempt's traceparent: what the record of a job parked from it keeps. */
    public String traceparent() {
        return traceparent;
    }

    /**
     * The job as its handler sees it: its {@code traceparent} field is this attempt's, so what a
     * handler sends on (the HTTP handler's {@code traceparent} header) continues this attempt.
     */
    public Job job() {
        Map<String, byte[]> fields = new LinkedHashMap<>(job.fields());
        fields.put(Job.TRACEPARENT, traceparent.getBytes(StandardCharsets.US_ASCII));
        return new Job(job.queue(), job.stream(), job.id(), job.attempt(), job.maxAttempts(), fields);
    }

    /**
     * Runs {@code body} with the span current. On a Vert.x thread it runs on a duplicated context of
     * this attempt's own (made on first use), where the span stays current after {@code body}
     * returns: what the handler started there (an HTTP call's answer) still sees it. Quarkus keeps
     * the OpenTelemetry context and the log's MDC in a duplicated context's locals, so the span can't
     * be made current on the event loop's root context itself (see QuarkusContextStorage).
     */
    public void run(Runnable body) {
        io.vertx.core.Context current = Vertx.currentContext();
        if (current == null) {
            try (var scope = context.makeCurrent()) {
                body.run();
            }
        } else if (current == own) {
            body.run();
        } else {
            ContextInternal attempt = ((ContextInternal) current).duplicate();
            own = attempt;
            attempt.dispatch(v -> {
                context.makeCurrent(); // never closed: this context is the attempt's alone
                body.run();
            });
        }
    }

    /**
     * Ends the span with the attempt's outcome ({@link #DONE}, {@link #RETRY_LATER},
     * {@link #PARKED}, {@link #RELEASED}) and, for a failed attempt, its error type and reason.
     */
    public void end(String outcome, String errorType, String reason) {
        span.setAttribute(QueueTracer.OUTCOME, outcome);
        if (errorType != null) {
            span.setAttribute(QueueTracer.ERROR_TYPE, errorType);
            span.setStatus(StatusCode.ERROR, reason == null ? "" : reason);
        }
        span.end();
    }
}
