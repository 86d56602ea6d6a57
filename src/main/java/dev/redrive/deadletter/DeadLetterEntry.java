package dev.redrive.deadletter;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.redrive.job.PackedFields;

/**
 * One entry of a dead-letter stream as read back: the record's fields as text, the snapshot as
 * the producer's bytes (the {@code f:} fields of dead-letter.lua, prefix removed, or its packed
 * {@code snapshot-packed} field unpacked; a replay's own packed fields are unpacked as well, see
 * {@link PackedFields}), so every record reads the same whatever its size.
 */
public record DeadLetterEntry(String id, Map<String, String> record, Map<String, byte[]> snapshot) {

    public static DeadLetterEntry of(String id, Map<String, byte[]> fields) {
        Map<String, String> record = new LinkedHashMap<>();
        Map<String, byte[]> snapshot = new LinkedHashMap<>();
        fields.forEach((name, value) -> {
            String snapshotName = RecordField.snapshotName(name);
            if (snapshotName != null) {
                snapshot.put(snapshotName, value);
            } else if (name.equals(RecordField.SNAPSHOT_PACKED.wireName())) {
                Map<String, byte[]> unpacked = PackedFields.decode(value);
                if (unpacked != null) {
                    snapshot.putAll(unpacked);
                }
            } else {
                record.put(name, new String(value, StandardCharsets.UTF_8));
            }
        });
        return new DeadLetterEntry(id, record, PackedFields.expand(snapshot));
    }

    /** A record field's text, "" when the record lacks it. */
    public String field(RecordField field) {
        return record.getOrDefault(field.wireName(), "");
    }

    public String originStream() {
        return field(RecordField.ORIGIN_STREAM);
    }

    public String originId() {
        return field(RecordField.ORIGIN_ID);
    }

    public String job() {
        return field(RecordField.JOB);
    }

    public String failure() {
        return field(RecordField.FAILURE);
    }

    public String fingerprint() {
        return field(RecordField.FINGERPRINT);
    }

    public int replays() {
        return number(RecordField.REPLAYS);
    }

    public int attempts() {
        return number(RecordField.ATTEMPTS);
    }

    public int maxAttempts() {
        return number(RecordField.MAX_ATTEMPTS);
    }

    /** When the job was parked; null when the record has no readable time. */
    public Instant deadAt() {
        return instant(RecordField.DEAD_AT);
    }

    public Instant instant(RecordField field) {
        String value = field(field);
        if (value.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** True when the job had been trimmed from its stream before it was parked. */
    public boolean snapshotMissing() {
        return RecordField.MISSING.equals(field(RecordField.SNAPSHOT));
    }

    /** True when the snapshot is stored packed in one field. */
    public boolean snapshotPacked() {
        return RecordField.PACKED.equals(field(RecordField.SNAPSHOT));
    }

    private int number(RecordField name) {
        try {
            return Integer.parseInt(field(name).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
