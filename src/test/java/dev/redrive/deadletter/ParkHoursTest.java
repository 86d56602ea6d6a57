package dev.redrive.deadletter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.redrive.redis.LuaScripts;
import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;

/**
 * The rings of hours lib/counters.lua keeps in a stats hash for the console's charts, against a
 * real Redis: a park counts in the hour of its dead-at, for the stream and for its cause; a ring
 * holds at most 24 hours however long it runs; a cause's ring goes with its last dead letter; and
 * what {@link StatsHash} reads back is the last 24 hours up to the clock's, oldest first.
 */
class ParkHoursTest {

    static final String A = "aaaaaaaaaaaa";
    static final String B = "bbbbbbbbbbbb";

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();
    static String library;

    @BeforeAll
    static void start() throws Exception {
        try (InputStream in = LuaScripts.class.getResourceAsStream("/lua/lib/counters.lua")) {
            library = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aParkCountsInTheHourOfItsDeadAtForTheStreamAndItsCause() throws Exception {
        String stats = "{hours}:dlq:stats";
        park(stats, A, "2026-12-03T02:10:00.001Z", A, "2026-12-03T02:59:59.999Z", B, "2026-12-03T03:00:00Z");
        park(stats, A, "2026-12-03T02:30:00Z");

        Map<String, String> hash = hash(stats);
        assertEquals("2026-12-03T02 3", hash.get("parked-hour:02"));
        assertEquals("2026-12-03T03 1", hash.get("parked-hour:03"));
        assertEquals("2026-12-03T02 3", hash.get("fingerprint-hour:" + A + ":02"));
        assertEquals("2026-12-03T03 1", hash.get("fingerprint-hour:" + B + ":03"));
        assertNull(hash.get("fingerprint-hour:" + A + ":03"));

        StatsHash read = new StatsHash(hash);
        Clock at = Clock.fixed(Instant.parse("2026-12-03T03:20:00Z"), ZoneOffset.UTC);
        ParksPerHour stream = read.parkedPerHour(at);
        assertEquals(Instant.parse("2026-12-02T04:00:00Z"), stream.from());
        assertEquals(ParksPerHour.HOURS, stream.counts().size());
        assertEquals(List.of(3L, 1L), stream.counts().subList(22, 24));
        assertEquals(4, stream.total());
        Map<String, ParksPerHour> byCause = new HashMap<>();
        read.causes(at).forEach(c -> byCause.put(c.fingerprint(), c.parkedPerHour()));
        assertEquals(List.of(3L, 0L), byCause.get(A).counts().subList(22, 24));
        assertEquals(List.of(0L, 1L), byCause.get(B).counts().subList(22, 24));

        // A day later the same hours are out of the window: nothing is counted twice.
        assertEquals(0, read.parkedPerHour(Clock.offset(at, java.time.Duration.ofHours(24))).total());
    }

    @Test
    void theRingsHoldTwentyFourHoursHoweverLongTheyRunAndALateParkNeverOverwritesANewerHour() throws Exception {
        String stats = "{days}:dlq:stats";
        Instant start = Instant.parse("2026-12-01T00:30:00Z");
        for (int h = 0; h < 72; h++) {
            String deadAt = start.plus(h, ChronoUnit.HOURS).toString();
            park(stats, A, deadAt, A, deadAt);
        }
        // parked a while after its dead-at was taken, in an hour the ring has since moved past
        park(stats, A, "2026-12-02T05:00:00Z");

        Map<String, String> hash = hash(stats);
        assertEquals(24, hash.keySet().stream().filter(f -> f.startsWith("parked-hour:")).count());
        assertEquals(24, hash.keySet().stream().filter(f -> f.startsWith("fingerprint-hour:")).count());
        assertEquals("2026-12-03T05 2", hash.get("parked-hour:05"));
        assertEquals("2026-12-03T23 2", hash.get("fingerprint-hour:" + A + ":23"));

        ParksPerHour read = new StatsHash(hash).parkedPerHour(Clock.fixed(Instant.parse("2026-12-03T23:59:00Z"), ZoneOffset.UTC));
        assertEquals(48, read.total(), "two parks in each of the last 24 hours");
    }

    @Test
    void aCausesRingGoesWithItsLastDeadLetterAndTheStreamsStays() throws Exception {
        String stats = "{gone}:dlq:stats";
        park(stats, A, "2026-12-03T02:10:00Z", B, "2026-12-03T02:11:00Z");
        eval(stats, "countDeadLetter(-1, 'exhausted', 'orders', ARGV[1], 'job')", A);

        Map<String, String> hash = hash(stats);
        assertEquals(List.of("fingerprint-hour:" + B + ":02"),
                hash.keySet().stream().filter(f -> f.startsWith("fingerprint-hour:")).toList());
        assertEquals("2026-12-03T02 2", hash.get("parked-hour:02"), "the stream's parks stay counted");
    }

    /** Parks one dead letter per (fingerprint, dead-at) pair, in one call, as dead-letter.lua does. */
    private static void park(String stats, String... fingerprintsAndDeadAts) throws Exception {
        eval(stats, "for i = 1, #ARGV, 2 do countDeadLetter(1, 'exhausted', 'orders', ARGV[i], 'job', 'a cause', "
                + "ARGV[i + 1], '1-' .. i) end", fingerprintsAndDeadAts);
    }

    /** The counters library, one call of {@code body}, then its counts written to the stats hash. */
    private static void eval(String stats, String body, String... args) throws Exception {
        List<Object> call = new ArrayList<>(List.of("EVAL", library + "\n" + body + "\nflushCounts(KEYS[1])\n", "1", stats));
        call.addAll(List.of(args));
        redis.call(call.toArray());
    }

    private static Map<String, String> hash(String key) throws Exception {
        Map<String, String> fields = new HashMap<>();
        for (Response field : redis.call("HKEYS", key)) {
            fields.put(field.toString(), redis.call("HGET", key, field.toString()).toString());
        }
        return fields;
    }
}
