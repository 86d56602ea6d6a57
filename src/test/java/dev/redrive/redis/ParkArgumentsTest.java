package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
        Fingerprint refused = Fingerprint.of("Refused", "400 bad input");
        List<DeadLetterRecord> records = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            boolean odd = i % 2 == 1;
            // shapes alternate; within a shape attempts, times, consumer and (for one job) the trace differ
            records.add(new DeadLetterRecord(s, ids.get(i), "g", "w" + (i % 3), "job", odd ? "terminal" : "exhausted",
                    odd ? "Refused" : "Timeout", odd ? "400 bad input" : "upstream timed out", odd ? refused : timeout,
                    odd ? 1 : 3, 3, t.plusMillis(i), t.plusSeconds(i), t.plusSeconds(10), i == 4 ? "00-abc-def-01" : ""));
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
    }

    @Test
    void aJobNamingNoShapeFailsTheCallBeforeAnyWrite() throws Exception {
        String s = "noshape" + (++streams);
        List<String> ids = readEntries(s, 2);
        Instant t = Instant.parse("2026-12-05T08:00:00Z");
        DeadLetterRecord record = new DeadLetterRecord(s, ids.get(0), "g", "w", "job", "exhausted", "E", "r",
                Fingerprint.of("E", "r"), 3, 3, t, t, t);
        List<String> args = new ArrayList<>(DeadLetterScripts.parkArguments("g", 0, List.of(record.toPark())));
        args.addAll(List.of(ids.get(1), "2")); // a second job, naming a shape that is not there

        Exception refused = assertThrows(Exception.class, () -> redis.eval(LuaScripts.Script.DEAD_LETTER, keys(s), args));

        assertTrue(refused.getMessage().contains("names no shape"), refused.getMessage());
        assertEquals(ids, redis.pendingIds(s, "g"));
        assertEquals(0L, redis.call("EXISTS", "{" + s + "}:dlq").toLong());
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
