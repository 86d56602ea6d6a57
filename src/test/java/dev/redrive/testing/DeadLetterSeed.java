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
import dev.redrive.deadletter.StatsField;
import dev.redrive.redis.RedisKeys;
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

    /**
     * Parks n records from origin directly, with their counters, as dead-letter.lua would: the
     * records as {@link DeadLetterSeed} writes them, added by one script (n may be thousands).
     */
    public static void parkMany(RedisDataSource redis, String dlq, String origin, int n) {
        List<DeadLetterSeed> seeds = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            seeds.add(from(origin, i + "-0").with(RecordField.JOB, "bulk")
                    .with(RecordField.ERROR_TYPE, "http-503").with(RecordField.REASON, "down")
                    .with(RecordField.FINGERPRINT, "bbbbbbbbbbbb").with(RecordField.ATTEMPTS, "5")
                    .with(RecordField.MAX_ATTEMPTS, "5").snapshot("n", Integer.toString(i))
                    .snapshot("payload", "job " + i));
        }
        parkMany(redis, dlq, seeds);
    }

    /**
     * Parks these records in order, with their counters (parked, failure kind, origin, cause), as
     * dead-letter.lua would, in one script (thousands at once). Values travel as text.
     */
    public static void parkMany(RedisDataSource redis, String dlq, List<DeadLetterSeed> seeds) {
        List<String> args = new ArrayList<>();
        args.add("EVAL");
        args.add("local at = 1\n"
                + "while at <= #ARGV do\n"
                + "  local n = tonumber(ARGV[at])\n"
                + "  redis.call('XADD', KEYS[1], '*', unpack(ARGV, at + 1, at + n))\n"
                + "  at = at + n + 1\n"
                + "end\n"
                + "return 1");
        args.add("1");
        args.add(dlq);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (DeadLetterSeed seed : seeds) {
            List<String> record = seed.pairs();
            args.add(Integer.toString(record.size()));
            args.addAll(record);
            counts.merge(StatsField.PARKED.kind(), 1L, Long::sum);
            counts.merge(StatsField.FAILURE.field(seed.text(RecordField.FAILURE)), 1L, Long::sum);
            counts.merge(StatsField.ORIGIN.field(seed.text(RecordField.ORIGIN_STREAM)), 1L, Long::sum);
            counts.merge(StatsField.FINGERPRINT.field(seed.text(RecordField.FINGERPRINT)), 1L, Long::sum);
        }
        redis.execute(args.get(0), args.subList(1, args.size()).toArray(String[]::new));
        var counters = redis.hash(String.class, String.class, Long.class);
        counts.forEach((field, n) -> counters.hincrby(RedisKeys.deadLetterStats(dlq), field, n));
    }

    private String text(RecordField field) {
        return new String(fields.get(field.wireName()), StandardCharsets.UTF_8);
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
