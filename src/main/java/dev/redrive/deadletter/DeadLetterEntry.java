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

    /** The record field that holds a big snapshot packed (its {@code snapshot} field says {@code packed}). */
    public static final String PACKED_SNAPSHOT = "snapshot-packed";

    public static DeadLetterEntry of(String id, Map<String, byte[]> fields) {
        Map<String, String> record = new LinkedHashMap<>();
        Map<String, byte[]> snapshot = new LinkedHashMap<>();
        fields.forEach((name, value) -> {
            if (name.startsWith(DeadLetterRecord.SNAPSHOT_PREFIX)) {
                snapshot.put(name.substring(DeadLetterRecord.SNAPSHOT_PREFIX.length()), value);
            } else if (name.equals(PACKED_SNAPSHOT)) {
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

    public String field(String name) {
        return record.getOrDefault(name, "");
    }

    public String originStream() {
        return field("origin-stream");
    }

    public String originId() {
        return field("origin-id");
    }

    public String job() {
        return field("job");
    }

    public String failure() {
        return field("failure");
    }

    public String fingerprint() {
        return field("fingerprint");
    }

    public int replays() {
        return number("replays");
    }

    public int attempts() {
        return number("attempts");
    }

    public int maxAttempts() {
        return number("max-attempts");
    }

    /** When the job was parked; null when the record has no readable time. */
    public Instant deadAt() {
        return instant("dead-at");
    }

    public Instant instant(String name) {
        String value = field(name);
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
        return "missing".equals(record.get("snapshot"));
    }

    private int number(String name) {
        try {
            return Integer.parseInt(field(name).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
