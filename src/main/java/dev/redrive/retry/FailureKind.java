package dev.redrive.retry;

import java.util.Arrays;
import java.util.Optional;

/**
 * Why a job was parked: the {@code failure} field of its dead-letter record, counted by failure in
 * the stream's stats hash and on {@code redrive_jobs_dead_lettered_total}, and the values the
 * listings' {@code failure} filter takes. The one place the kinds are spelt; the names are part of
 * redrive's contract (README, "The dead-letter record"), and dead-letter.lua spells
 * {@link #MISSING} again (RecordSchemaTest holds it to this).
 */
public enum FailureKind {
    /** Retrying could not help: the handler said so, or the delivery came with its budget spent. */
    TERMINAL("terminal"),
    /** The attempt budget is spent. */
    EXHAUSTED("exhausted"),
    /** The job's stream entry was trimmed before it completed: no snapshot to keep. */
    MISSING("missing"),
    /** A watched group's consumer received it {@code max-receive-count} times without an ack. */
    MAX_RECEIVE("max-receive");

    private final String wireName;

    FailureKind(String wireName) {
        this.wireName = wireName;
    }

    /** The kind as the record and the stats hash spell it. */
    public String wireName() {
        return wireName;
    }

    public static Optional<FailureKind> named(String wireName) {
        return Arrays.stream(values()).filter(k -> k.wireName.equals(wireName)).findFirst();
    }
}
