package dev.redrive.worker;

import dev.redrive.retry.Decision;
import dev.redrive.retry.Failure;
import dev.redrive.trace.AttemptSpan;

/** An attempt span's outcome, named from the retry decision (README, "Tracing"). */
final class AttemptEnds {

    private AttemptEnds() {
    }

    static void end(AttemptSpan span, Decision decision, Failure failure) {
        String outcome = switch (decision) {
            case ACK -> AttemptSpan.DONE;
            case RETRY_LATER -> AttemptSpan.RETRY_LATER;
            case RELEASE -> AttemptSpan.RELEASED;
            case PARK_TERMINAL, PARK_EXHAUSTED -> AttemptSpan.PARKED;
        };
        span.end(outcome, failure == null ? null : failure.errorType(), failure == null ? null : failure.reason());
    }
}
