package dev.redrive.testing;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.Fingerprint;
import dev.redrive.deadletter.RecordField;
import io.quarkus.redis.datasource.RedisDataSource;

/**
 * A dead-letter record written straight into a dead-letter stream, for tests that need records
 * no worker would park (a forged origin, an unreadable dead-at, thousands at once). It starts from
 * what redrive writes ({@link DeadLetterRecord#pairs()}, then what dead-letter.lua adds), so its
 * field names are never spelt here; a test changes only the fields it is about.
 */
public final class DeadLetterSeed {

    private final Map<String, byte[]> fields = new LinkedHashMap<>();

    private DeadLetterSeed(DeadLetterRecord record) {
        List<String> pairs = record.pairs();
        for (int i = 0; i < pairs.size(); i += 2) {
            fields.put(pairs.get(i), bytes(pairs.get(i + 1)));
        }
        // what dead-letter.lua adds for a job redrive never replayed
        with(RecordField.REPLAYS, "0");
    }

    /** A job of {@code originStream} parked after its last attempt failed, with no snapshot yet. */
    public static DeadLetterSeed from(String originStream, String originId) {
        Instant now = Instant.now();
        return new DeadLetterSeed(new DeadLetterRecord(originStream, originId, "redrive", "seed", "seed", "exhausted",
                "seed", "seeded by a test", Fingerprint.of("seed", "seeded by a test"), 3, 3, now, now, now));
    }

    public DeadLetterSeed with(RecordField field, String value) {
        fields.put(field.wireName(), bytes(value));
        return this;
    }

    public DeadLetterSeed without(RecordField field) {
        fields.remove(field.wireName());
        return this;
    }

    /** A field of the job's snapshot, as the producer wrote it. */
    public DeadLetterSeed snapshot(String name, String value) {
        return snapshot(name, bytes(value));
    }

    public DeadLetterSeed snapshot(String name, byte[] value) {
        fields.put(RecordField.snapshotField(name), value);
        return this;
    }

    /** As dead-letter.lua parks a job trimmed from its stream before it was parked. */
    public DeadLetterSeed snapshotMissing() {
        return with(RecordField.SNAPSHOT, RecordField.MISSING);
    }

    /** Name, value, ... as text. */
    public List<String> pairs() {
        List<String> out = new ArrayList<>(fields.size() * 2);
        fields.forEach((name, value) -> {
            out.add(name);
            out.add(new String(value, StandardCharsets.UTF_8));
        });
        return out;
    }

    /** Adds the record to {@code deadLetters}; returns its entry id. */
    public String park(RedisDataSource redis, String deadLetters) {
        return redis.stream(String.class, String.class, byte[].class).xadd(deadLetters, new LinkedHashMap<>(fields));
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
