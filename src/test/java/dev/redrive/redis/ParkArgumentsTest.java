package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.Fingerprint;
import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;

/**
 * dead-letter.lua receives what the records of a call share once (a shape) and each job's own
 * values beside it (DeadLetterScripts.parkArguments, lib/park-args.lua). However the jobs of a
 * call mix, each parked record must be exactly the one its job was given, field for field and
 * in order, and the answers must come in the jobs' order.
 */
class ParkArgumentsTest {

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();
    static int streams;

    @Test
    void jobsOfSeveralShapesInterleavedAreParkedEachWithItsOwnRecord() throws Exception {
        String s = "mixed" + (++streams);
        List<String> ids = readEntries(s, 6);
        Instant t = Instant.parse("2026-12-05T08:00:00Z");
        Fingerprint timeout = Fingerprint.of("Timeout", "upstream timed out");
        Fingerprint reset = Fingerprint.of("Reset", "connection reset");
        Fingerprint refused = Fingerprint.of("Refused", "400 bad input");
        List<DeadLetterRecord> records = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            // three shapes in turn, two of one kind with different causes; within a shape the
            // attempts, times, consumer and (for one job) the trace differ
            Fingerprint cause = List.of(timeout, reset, refused).get(i % 3);
            records.add(new DeadLetterRecord(s, ids.get(i), "g", "w" + (i % 2), "job",
                    cause == refused ? "terminal" : "exhausted", cause == reset ? "Reset" : cause == refused ? "Refused" : "Timeout",
                    cause.text(), cause, 1 + i % 2, 3, t.plusMillis(i), t.plusSeconds(i), t.plusSeconds(10),
                    i == 4 ? "00-abc-def-01" : ""));
        }

        Response reply = park(s, records);

        assertEquals(ids.size(), reply.size());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals("parked", reply.get(i).get(0).toString(), "job " + i);
            String at = reply.get(i).get(1).toString();
            List<String> fields = new ArrayList<>();
            redis.call("XRANGE", "{" + s + "}:dlq", at, at).get(0).get(1).forEach(f -> fields.add(f.toString()));
            List<String> expected = new ArrayList<>(records.get(i).pairs());
            expected.addAll(List.of("replays", "0", "f:kind", "job " + i));
            assertEquals(expected, fields, "job " + i);
        }
        assertEquals(List.of(), redis.pendingIds(s, "g"));
        String stats = RedisKeys.deadLetterStats("{" + s + "}:dlq");
        for (Fingerprint cause : List.of(timeout, reset, refused)) {
            assertEquals("2", redis.call("HGET", stats, "fingerprint:" + cause.id()).toString(), cause.text());
        }
        assertEquals("4", redis.call("HGET", stats, "failure:exhausted").toString());
        assertEquals("2", redis.call("HGET", stats, "failure:terminal").toString());
    }

    /** Arguments that do not fit are refused before anything is written: the jobs stay pending. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a job naming no shape | add 2 | names no shape",
            "a job short of its values | drop 1 | missing values",
            "a place that is a name | place 3 | not a value",
            "a place past the record | place 99 | not a value" })
    void argumentsThatDoNotFitAreRefusedBeforeAnyWrite(String what, String change, String message) throws Exception {
        String s = "misfit" + (++streams);
        List<String> ids = readEntries(s, 2);
        Instant t = Instant.parse("2026-12-05T08:00:00Z");
        List<DeadLetterScripts.Park> parks = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            parks.add(new DeadLetterRecord(s, ids.get(i), "g", "w", "job", "exhausted", "E", "r", Fingerprint.of("E", "r"),
                    3, 3, t.plusMillis(i), t, t).toPark());
        }
        // group, forget-before, 1 shape: kind, cause, its text, n, n items, m, m places; then the jobs
        List<String> args = new ArrayList<>(DeadLetterScripts.parkArguments("g", 0, parks));
        int firstPlace = 8 + Integer.parseInt(args.get(6));
        String[] how = change.split(" ");
        switch (how[0]) {
            case "add" -> args.addAll(List.of(ids.get(1), how[1]));
            case "drop" -> args.subList(args.size() - Integer.parseInt(how[1]), args.size()).clear();
            default -> args.set(firstPlace, how[1]);
        }

        Exception refused = assertThrows(Exception.class, () -> redis.eval(LuaScripts.Script.DEAD_LETTER, keys(s), args));

        assertTrue(refused.getMessage().contains(message), what + ": " + refused.getMessage());
        assertEquals(ids, redis.pendingIds(s, "g"), what);
        assertEquals(0L, redis.call("EXISTS", "{" + s + "}:dlq").toLong(), what);
    }

    /** n entries of a new stream ({@code kind=job <i>}), read by w: their ids. */
    private static List<String> readEntries(String s, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            redis.call("XADD", s, (i + 1) + "-1", "kind", "job " + i);
        }
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");
        return redis.pendingIds(s, "g");
    }

    private static Response park(String s, List<DeadLetterRecord> records) throws Exception {
        return redis.eval(LuaScripts.Script.DEAD_LETTER, keys(s),
                DeadLetterScripts.parkArguments("g", 0, records.stream().map(DeadLetterRecord::toPark).toList()));
    }

    private static List<String> keys(String s) {
        String dlq = "{" + s + "}:dlq";
        return List.of(s, dlq, RedisKeys.deadLetterStats(dlq), RedisKeys.notBefore(s), RedisKeys.replayed(dlq),
                RedisKeys.replayedAt(dlq));
    }
}
