package dev.redrive.deadletter;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redrive.redis.EntryReads;

/**
 * A stream entry as a view reads it: every value cut short in Redis (read-entries.lua, or
 * list.lua) with its full size beside it, and how many fields the entry's byte limit
 * left out. It never holds more than {@code redrive.reads.entry-bytes}, whatever the entry holds.
 */
public record Excerpt(String id, Map<String, Value> fields, int fieldsLeftOut) {

    /** The first bytes of a value and its full length. */
    public record Value(byte[] bytes, long size) {

        public boolean truncated() {
            return bytes.length < size;
        }
    }

    /** Entries as the redis reads cut them. */
    static List<Excerpt> all(List<EntryReads.CutEntry> cut) {
        return cut.stream().map(Excerpt::of).toList();
    }

    static Excerpt of(EntryReads.CutEntry cut) {
        Map<String, Value> fields = new LinkedHashMap<>();
        cut.fields().forEach((name, value) -> fields.put(name, new Value(value.bytes(), value.size())));
        return new Excerpt(cut.id(), fields, cut.fieldsLeftOut());
    }

    /**
     * The record's own fields as a {@link DeadLetterEntry} with no snapshot. Built directly, not
     * through {@link DeadLetterEntry#of}, so no decoding of the snapshot ever sees a cut value.
     */
    public DeadLetterEntry record() {
        Map<String, String> record = new LinkedHashMap<>();
        fields.forEach((name, value) -> {
            if (RecordField.snapshotName(name) == null) {
                record.put(name, new String(value.bytes(), StandardCharsets.UTF_8));
            }
        });
        return new DeadLetterEntry(id, record, Map.of());
    }

    /** The snapshot's fields (the {@code f:} prefix removed), each cut short. */
    public Map<String, Value> snapshot() {
        Map<String, Value> snapshot = new LinkedHashMap<>();
        fields.forEach((name, value) -> {
            String snapshotName = RecordField.snapshotName(name);
            if (snapshotName != null) {
                snapshot.put(snapshotName, value);
            }
        });
        return snapshot;
    }

    /** Names of the record's own fields (not the snapshot's) that were cut short. */
    public List<String> truncatedRecordFields() {
        return fields.entrySet().stream()
                .filter(f -> RecordField.snapshotName(f.getKey()) == null && f.getValue().truncated())
                .map(Map.Entry::getKey).toList();
    }
}
