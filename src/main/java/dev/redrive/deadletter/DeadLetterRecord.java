package dev.redrive.deadletter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.redrive.job.Job;
import dev.redrive.redis.DeadLetterScripts;
import dev.redrive.retry.Failure;
import dev.redrive.retry.FailureKind;

/**
 * The record written beside a parked job's snapshot, as stream fields named by {@link RecordField}.
 * dead-letter.lua adds the fields {@link RecordField#writtenByScript()}: the snapshot (as
 * {@code f:<name>}, or packed) and {@code replays}, which it takes from what redrive recorded when
 * it replayed the entry, never from the job's own fields.
 */
public record DeadLetterRecord(
        String originStream,
        String originId,
        String group,
        String consumer,
        String job,
        String failureKind,
        String errorType,
        String reason,
        Fingerprint fingerprint,
        int attempts,
        int maxAttempts,
        Instant enqueuedAt,
        Instant lastAttemptAt,
        Instant deadAt,
        String lastAttemptTrace) {

    /** A record without a trace: the job's last attempt was not traced (or never ran). */
    public DeadLetterRecord(String originStream, String originId, String group, String consumer, String job,
            String failureKind, String errorType, String reason, Fingerprint fingerprint, int attempts,
            int maxAttempts, Instant enqueuedAt, Instant lastAttemptAt, Instant deadAt) {
        this(originStream, originId, group, consumer, job, failureKind, errorType, reason, fingerprint, attempts,
                maxAttempts, enqueuedAt, lastAttemptAt, deadAt, "");
    }

    public static DeadLetterRecord of(Job job, String group, String consumer, FailureKind kind, Failure failure,
            Instant lastAttemptAt, Instant deadAt) {
        return new DeadLetterRecord(job.stream(), job.id(), group, consumer, job.name(), kind.wireName(),
                failure.errorType(), failure.reason(), Fingerprint.of(failure.errorType(), failure.reason()),
                job.attempt(), job.maxAttempts(), job.enqueuedAt(), lastAttemptAt, deadAt);
    }

    /** This record with the traceparent of the span of the attempt that parks the job. */
    public DeadLetterRecord withLastAttemptTrace(String traceparent) {
        return new DeadLetterRecord(originStream, originId, group, consumer, job, failureKind, errorType, reason,
                fingerprint, attempts, maxAttempts, enqueuedAt, lastAttemptAt, deadAt, traceparent);
    }

    /**
     * This record as the job's entry turned out to be: trimmed from its stream before it could be
     * parked. The kind becomes missing; the failure it was to be parked for stays in the reason,
     * and everything else (attempts, times, trace) stays as it was.
     */
    public DeadLetterRecord asMissing() {
        Failure missing = Failure.missing(originStream, new Failure(true, true, errorType, reason, null));
        return new DeadLetterRecord(originStream, originId, group, consumer, job, FailureKind.MISSING.wireName(), missing.errorType(),
                missing.reason(), Fingerprint.of(missing.errorType(), missing.reason()), attempts, maxAttempts,
                enqueuedAt, lastAttemptAt, deadAt, lastAttemptTrace);
    }

    /** Name, value pairs in the order they appear in the dead-letter stream. */
    public List<String> pairs() {
        List<String> p = new ArrayList<>(30);
        add(p, RecordField.ORIGIN_STREAM, originStream);
        add(p, RecordField.ORIGIN_ID, originId);
        add(p, RecordField.GROUP, group);
        add(p, RecordField.CONSUMER, consumer);
        add(p, RecordField.JOB, job);
        add(p, RecordField.FAILURE, failureKind);
        add(p, RecordField.ERROR_TYPE, errorType);
        add(p, RecordField.REASON, reason);
        add(p, RecordField.FINGERPRINT, fingerprint.id());
        add(p, RecordField.ATTEMPTS, Integer.toString(attempts));
        add(p, RecordField.MAX_ATTEMPTS, Integer.toString(maxAttempts));
        add(p, RecordField.ENQUEUED_AT, enqueuedAt.toString());
        add(p, RecordField.LAST_ATTEMPT_AT, lastAttemptAt == null ? "" : lastAttemptAt.toString());
        add(p, RecordField.DEAD_AT, deadAt.toString());
        add(p, RecordField.LAST_ATTEMPT_TRACE, lastAttemptTrace);
        return p;
    }

    /** This record as dead-letter.lua parks it (DeadLetterScripts encodes a call's records). */
    public DeadLetterScripts.Park toPark() {
        return new DeadLetterScripts.Park(originId, failureKind, fingerprint.id(), fingerprint.text(), pairs());
    }

    private static void add(List<String> pairs, RecordField field, String value) {
        pairs.add(field.wireName());
        pairs.add(value == null ? "" : value);
    }
}
