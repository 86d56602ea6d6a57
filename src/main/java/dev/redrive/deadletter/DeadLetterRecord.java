package dev.redrive.deadletter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.redrive.job.Job;
import dev.redrive.retry.Failure;

/**
 * The record written beside a parked job's snapshot, as stream fields. Field names are part of
 * redrive's contract (README, "The dead-letter record"). dead-letter.lua adds the snapshot (as
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
        Instant deadAt) {

    /** Prefix of the snapshot's fields in the dead-letter stream. */
    public static final String SNAPSHOT_PREFIX = "f:";

    public static DeadLetterRecord of(Job job, String group, String consumer, String failureKind, Failure failure,
            Instant lastAttemptAt, Instant deadAt) {
        return new DeadLetterRecord(job.stream(), job.id(), group, consumer, job.name(), failureKind,
                failure.errorType(), failure.reason(), Fingerprint.of(failure.errorType(), failure.reason()),
                job.attempt(), job.maxAttempts(), job.enqueuedAt(), lastAttemptAt, deadAt);
    }

    /** Name, value pairs in the order they appear in the dead-letter stream. */
    public List<String> pairs() {
        List<String> p = new ArrayList<>(30);
        add(p, "origin-stream", originStream);
        add(p, "origin-id", originId);
        add(p, "group", group);
        add(p, "consumer", consumer);
        add(p, "job", job);
        add(p, "failure", failureKind);
        add(p, "error-type", errorType);
        add(p, "reason", reason);
        add(p, "fingerprint", fingerprint.id());
        add(p, "attempts", Integer.toString(attempts));
        add(p, "max-attempts", Integer.toString(maxAttempts));
        add(p, "enqueued-at", enqueuedAt.toString());
        add(p, "last-attempt-at", lastAttemptAt == null ? "" : lastAttemptAt.toString());
        add(p, "dead-at", deadAt.toString());
        return p;
    }

    private static void add(List<String> pairs, String name, String value) {
        pairs.add(name);
        pairs.add(value == null ? "" : value);
    }
}
