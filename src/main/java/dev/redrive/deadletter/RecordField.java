package dev.redrive.deadletter;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The fields of a dead-letter record, each with the name it has in the stream: the one place
 * redrive spells them. Java writes the first ones ({@link DeadLetterRecord#pairs()}) and reads them
 * back ({@link DeadLetterEntry}); dead-letter.lua adds the ones {@link #writtenByScript()}, and the
 * scripts read some by name (RecordSchemaTest checks every name they use is one of these). The
 * names are part of redrive's contract (README, "The dead-letter record"): renaming one orphans
 * every record already parked.
 */
public enum RecordField {
    ORIGIN_STREAM("origin-stream"),
    ORIGIN_ID("origin-id"),
    GROUP("group"),
    CONSUMER("consumer"),
    JOB("job"),
    FAILURE("failure"),
    ERROR_TYPE("error-type"),
    REASON("reason"),
    FINGERPRINT("fingerprint"),
    ATTEMPTS("attempts"),
    MAX_ATTEMPTS("max-attempts"),
    ENQUEUED_AT("enqueued-at"),
    LAST_ATTEMPT_AT("last-attempt-at"),
    DEAD_AT("dead-at"),
    /** The W3C traceparent of the last attempt's span ({@code 00-<trace id>-<span id>-<flags>}); empty with tracing off. */
    LAST_ATTEMPT_TRACE("last-attempt-trace"),
    /** How often redrive had replayed the job before, from its replay ledger (never from the job's fields). */
    REPLAYS("replays", true),
    /** {@link #MISSING} (trimmed before it was parked), {@link #PACKED}, or absent (the snapshot is in f: fields). */
    SNAPSHOT("snapshot", true),
    /** A snapshot of more fields than one command takes, packed into one value (see PackedFields). */
    SNAPSHOT_PACKED("snapshot-packed", true);

    /** Prefix of the snapshot's fields: the producer's field {@code name} is kept as {@code f:name}. */
    public static final String SNAPSHOT_PREFIX = "f:";
    /** {@link #SNAPSHOT} when the job was trimmed from its stream before it was parked. */
    public static final String MISSING = "missing";
    /** {@link #SNAPSHOT} when the snapshot is kept in {@link #SNAPSHOT_PACKED}. */
    public static final String PACKED = "packed";

    private static final Map<String, RecordField> BY_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(RecordField::wireName, Function.identity()));

    private final String wireName;
    private final boolean writtenByScript;

    RecordField(String wireName) {
        this(wireName, false);
    }

    RecordField(String wireName, boolean writtenByScript) {
        this.wireName = wireName;
        this.writtenByScript = writtenByScript;
    }

    /** The field's name in the dead-letter stream. */
    public String wireName() {
        return wireName;
    }

    /** True for the fields dead-letter.lua adds; the others come from {@link DeadLetterRecord#pairs()}. */
    public boolean writtenByScript() {
        return writtenByScript;
    }

    public static Optional<RecordField> named(String wireName) {
        return Optional.ofNullable(BY_NAME.get(wireName));
    }

    /** A snapshot field's name as stored. */
    public static String snapshotField(String name) {
        return SNAPSHOT_PREFIX + name;
    }

    /** The producer's name of a stored snapshot field, or null when {@code stored} is no snapshot field. */
    public static String snapshotName(String stored) {
        return stored.startsWith(SNAPSHOT_PREFIX) ? stored.substring(SNAPSHOT_PREFIX.length()) : null;
    }
}
