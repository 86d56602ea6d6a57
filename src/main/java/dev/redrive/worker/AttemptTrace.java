package dev.redrive.worker;

import java.util.function.Function;

import dev.redrive.job.Job;
import dev.redrive.retry.Decision;
import dev.redrive.retry.Failure;
import dev.redrive.trace.AttemptSpan;
import dev.redrive.trace.QueueTracer;

/**
 * An attempt's trace as the worker sees it, and the one place that knows tracing may be off: then
 * every attempt's is {@link #NONE}, which runs each step at once and ends nothing, so no class of
 * the worker checks for a missing span and a job costs no allocation for tracing.
 */
sealed interface AttemptTrace {

    AttemptTrace NONE = new Off();

    /** What starts each attempt's trace: a span of {@code tracer}, or {@link #NONE} when it is null (tracing off). */
    static Function<Job, AttemptTrace> starter(QueueTracer tracer) {
        return tracer == null ? job -> NONE : job -> new On(tracer.start(job));
    }

    /** Runs the handler's call, with the span current ({@link AttemptSpan#runHandler}). */
    void runHandler(Runnable call);

    /** Runs {@code body} with the span current: its log lines and exemplars carry the attempt's trace. */
    void run(Runnable body);

    /** Runs what follows the handler back where the attempt started, without the span ({@link AttemptSpan#release}). */
    void release(Runnable next);

    /** Ends the span with the outcome the retry decision names (README, "Tracing"). */
    void end(Decision decision, Failure failure);

    /** The attempt's traceparent, what the record of a job parked from it keeps; null when tracing is off. */
    String traceparent();

    /** Tracing off. */
    final class Off implements AttemptTrace {

        private Off() {
        }

        @Override
        public void runHandler(Runnable call) {
            call.run();
        }

        @Override
        public void run(Runnable body) {
            body.run();
        }

        @Override
        public void release(Runnable next) {
            next.run();
        }

        @Override
        public void end(Decision decision, Failure failure) {
        }

        @Override
        public String traceparent() {
            return null;
        }
    }

    /** Tracing on: the attempt's span. */
    record On(AttemptSpan span) implements AttemptTrace {

        @Override
        public void runHandler(Runnable call) {
            span.runHandler(call);
        }

        @Override
        public void run(Runnable body) {
            span.run(body);
        }

        @Override
        public void release(Runnable next) {
            span.release(next);
        }

        @Override
        public void end(Decision decision, Failure failure) {
            String outcome = switch (decision) {
                case ACK -> AttemptSpan.DONE;
                case RETRY_LATER -> AttemptSpan.RETRY_LATER;
                case RELEASE -> AttemptSpan.RELEASED;
                case PARK_TERMINAL, PARK_EXHAUSTED -> AttemptSpan.PARKED;
            };
            span.end(outcome, failure == null ? null : failure.errorType(), failure == null ? null : failure.reason());
        }

        @Override
        public String traceparent() {
            return span.traceparent();
        }
    }
}
