package dev.redrive.deadletter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.redrive.job.Job;
import dev.redrive.retry.Failure;

/**
 * The record written beside a parked job's snapshot, as stream fields. Field names are part of
 * redrive's contract (README, "The dead-letter record"); the snapshot itself is copied by
 * dead-letter.lua as {@code f:<name>}.
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
        int replays) {

    /** Field that carries how often a job already came back through replay. */
    public static final String REPLAYS_FIELD = "redrive-replays";
    /** Prefix of the snapshot's fields in the dead-letter stream. */
    public static final String SNAPSHOT_PREFIX = "f:";

    public static DeadLetterRecord of(Job job, String group, String consumer, String failureKind, Failure failure,
            Instant lastAttemptAt, Instant deadAt) {
        int replays = job.text(REPLAYS_FIELD).map(DeadLetterRecord::parseOrZero).orElse(0);
        return new DeadLetterRecord(job.stream(), job.id(), group, consumer, job.name(), failureKind,
                failure.errorType(), failure.reason(), Fingerprint.of(failure.errorType(), failure.reason()),
                job.attempt(), job.maxAttempts(), job.enqueuedAt(), lastAttemptAt, deadAt, replays);
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
        add(p, "replays", Integer.toString(replays));
        return p;
    }

    private static void add(List<String> pairs, String name, String value) {
        pairs.add(name);
        pairs.add(value == null ? "" : value);
    }

    private static int parseOrZero(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
