package dev.redrive.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

import dev.redrive.job.Job;
import dev.redrive.job.ReservedField;

/**
 * Starts the span of each attempt of one queue's jobs, named and described by the OpenTelemetry
 * messaging conventions ({@code process <stream>}, kind CONSUMER). Where it sits:
 * <ul>
 * <li>a new entry's first attempt is a child of the entry's {@code traceparent} (the producer's
 * span), so it joins the producer's trace;</li>
 * <li>a retry, a stalled job's next run, and a replayed entry's attempts each start a trace of
 * their own, linked to the entry's {@code traceparent}: the producer's span, or for a replayed
 * entry the replay's span. A retry links to the producer rather than to the attempt before it:
 * knowing that attempt's span would cost a Redis write per failed attempt; the attempts of one job
 * share {@code messaging.message.id} and the producer's link, which finds them all.</li>
 * </ul>
 */
public final class QueueTracer {

    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("redrive.job.attempt");
    static final AttributeKey<Long> MAX_ATTEMPTS = AttributeKey.longKey("redrive.job.max_attempts");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("redrive.job.outcome");

    private final Tracer tracer;
    private final String name;
    private final Attributes queue;

    /**
     * The attributes every attempt of the queue shares: the conventions' required ones only. Each
     * one is built into and exported with every span, so the consumer (which process ran it) is left
     * to the resource ({@code host.name}, {@code service.instance.id}).
     */
    QueueTracer(Tracer tracer, String stream, String group) {
        this.tracer = tracer;
        this.name = "process " + stream;
        this.queue = Attributes.builder()
                .put("messaging.system", "redis")
                .put("messaging.operation.type", "process")
                .put("messaging.operation.name", "process")
                .put("messaging.destination.name", stream)
                .put("messaging.consumer.group.name", group)
                .build();
    }

    /**
     * Starts the span of the job's attempt (or of a delivery that parks or releases it unrun). The
     * sampler decides from the parent and the trace id alone (parentbased_traceidratio, fixed at
     * build time), so the attributes are added only once the span records: a job sampled out costs
     * the decision and a non-recording span, no attribute map.
     */
    public AttemptSpan start(Job job) {
        SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(SpanKind.CONSUMER);
        byte[] field = job.fields().get(Job.TRACEPARENT);
        SpanContext before = field == null ? null
                : Traceparent.parse(new String(field, java.nio.charset.StandardCharsets.US_ASCII));
        if (before != null && job.attempt() == 1 && !job.fields().containsKey(ReservedField.REPLAY_OF.wireName())) {
            builder.setParent(Context.root().with(Span.wrap(before)));
        } else {
            builder.setNoParent();
            if (before != null) {
                builder.addLink(before);
            }
        }
        Span span = builder.startSpan();
        if (span.isRecording()) {
            span.setAllAttributes(queue);
            span.setAttribute(MESSAGE_ID, job.id());
            span.setAttribute(ATTEMPT, (long) job.attempt());
            span.setAttribute(MAX_ATTEMPTS, (long) job.maxAttempts());
        }
        return new AttemptSpan(span);
    }
}
