package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.job.Job;
import dev.redrive.retry.Failure;
import dev.redrive.retry.FailureKind;
import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * A job trimmed from its stream while it is pending is never dropped from the PEL without a
 * record. On Redis 7 a plain XCLAIM deletes it silently; transfer.lua (the heartbeat, the hand-over,
 * an immediate retry, the hand-back) claims only entries that still exist and answers the trimmed
 * ones, still pending; dead-letter.lua refuses to park one under another kind than missing
 * ('trimmed', nothing written), and parks it as missing with its record.
 */
class TrimmedEntriesTest {

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();
    static int streams;

    /** The premise: without the checks, Redis 7 drops a trimmed entry from the PEL when it is claimed. */
    @Test
    void aPlainXclaimDropsATrimmedEntryFromThePel() throws Exception {
        String s = seed();
        redis.call("XCLAIM", s, "g", "w", "0", "1-1", "JUSTID");
        assertEquals(List.of("2-1", "3-1", "4-1"), redis.pendingIds(s, "g"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "heartbeat, w, -1, -1, 1",
            "hand-over to the retry consumer with a Retry-After, redrive-retry, -1, 9000, 1",
            "immediate retry, w, 2, -1, 2",
            "hand-back, redrive-retry, 0, -1, 0" })
    void eachTransferClaimsWhatExistsAndLeavesTheTrimmedPendingToBeParkedAsMissing(String path, String to,
            int count, long hint, int countAfter) throws Exception {
        String s = seed();
        List<Object> args = new ArrayList<>(List.of("g", to, count));
        for (String id : List.of("1-1", "2-1", "3-1", "4-1")) {
            args.add(id);
            args.add(hint);
        }

        Response trimmed = redis.eval(LuaScripts.Script.TRANSFER, List.of(s, RedisKeys.notBefore(s)), args);

        assertEquals("[[1-1, 1, w], [2-1, 1, w]]", text(trimmed), path + ": the trimmed ones, as XPENDING saw them");
        assertEquals(List.of("1-1", "2-1", "3-1", "4-1"), redis.pendingIds(s, "g"), path + ": nothing dropped from the PEL");
        assertEquals("[3-1, " + to + ", " + countAfter + "]", redis.ownerAndCount(s, "g", "3-1"), path);
        assertEquals(hint < 0 ? 0 : 2, redis.call("HLEN", RedisKeys.notBefore(s)).toInteger(),
                path + ": hints only for entries claimed");

        Map<String, String> records = parkTrimmed(s, List.of("1-1", "2-1"));

        assertEquals(List.of("3-1", "4-1"), redis.pendingIds(s, "g"), path + ": the trimmed ones are parked and acked");
        assertEquals(2, records.size());
        records.values().forEach(r -> {
            assertTrue(r.contains("failure=missing"), r);
            assertTrue(r.contains("reason=entry trimmed from " + s + " before it completed; last error: "
                    + "java.lang.IllegalStateException: provider answered 503"), r);
            assertTrue(r.contains("snapshot=missing") && r.contains("attempts=1") && r.contains("origin-stream=" + s), r);
        });
    }

    /**
     * The park path: a job parked for another failure whose entry is gone gets 'trimmed' and
     * nothing written (still pending, no record), then is parked as missing with what is known.
     */
    @Test
    void deadLetterAnswersTrimmedAndWritesNothingUnlessTheKindIsMissing() throws Exception {
        String s = seed();
        List<DeadLetterRecord> exhausted = List.of(record(s, "1-1"), record(s, "3-1"));

        Response first = park(s, exhausted);

        assertEquals("trimmed", first.get(0).get(0).toString());
        assertEquals("parked", first.get(1).get(0).toString());
        assertEquals(List.of("1-1", "2-1", "4-1"), redis.pendingIds(s, "g"), "the trimmed one stays pending");
        assertEquals(1, redis.call("XLEN", "{" + s + "}:dlq").toInteger());

        Response again = park(s, List.of(exhausted.get(0).asMissing()));

        assertEquals("parked", again.get(0).get(0).toString());
        assertEquals(List.of("2-1", "4-1"), redis.pendingIds(s, "g"));
        String record = text(redis.call("XRANGE", "{" + s + "}:dlq", again.get(0).get(1).toString(), "+"));
        assertTrue(record.contains("origin-id, 1-1") && record.contains("failure, missing")
                && record.contains("snapshot, missing") && record.contains("dead-at"), record);
    }

    /** Four entries read by consumer w (delivery 1), the first two trimmed away. */
    private static String seed() throws Exception {
        String s = "trim" + (++streams);
        for (int i = 1; i <= 4; i++) {
            redis.call("XADD", s, i + "-1", "kind", "job " + i);
        }
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");
        redis.call("XTRIM", s, "MAXLEN", "2");
        return s;
    }

    private static DeadLetterRecord record(String stream, String id) {
        Job job = new Job("q", stream, id, 1, 3, Map.of());
        return DeadLetterRecord.of(job, "g", "w", FailureKind.EXHAUSTED,
                Failure.of(new IllegalStateException("provider answered 503")), Instant.now(), Instant.now());
    }

    /** What the worker does with what transfer.lua answers trimmed: park it as missing, with the attempt's failure. */
    private static Map<String, String> parkTrimmed(String stream, List<String> ids) throws Exception {
        List<DeadLetterRecord> records = ids.stream().map(id -> {
            Job job = new Job("q", stream, id, 1, 3, Map.of());
            return DeadLetterRecord.of(job, "g", "w", FailureKind.MISSING,
                    Failure.missing(stream, Failure.of(new IllegalStateException("provider answered 503"))), null,
                    Instant.now());
        }).toList();
        Response reply = park(stream, records);
        Map<String, String> parked = new TreeMap<>();
        for (int i = 0; i < ids.size(); i++) {
            assertEquals("parked", reply.get(i).get(0).toString(), text(reply));
            Response entry = redis.call("XRANGE", "{" + stream + "}:dlq", reply.get(i).get(1).toString(),
                    reply.get(i).get(1).toString()).get(0).get(1);
            StringBuilder fields = new StringBuilder();
            for (int f = 0; f < entry.size(); f += 2) {
                fields.append(entry.get(f)).append('=').append(entry.get(f + 1)).append('\n');
            }
            parked.put(ids.get(i), fields.toString());
        }
        return parked;
    }

    private static Response park(String stream, List<DeadLetterRecord> records) throws Exception {
        String dlq = "{" + stream + "}:dlq";
        List<String> args = DeadLetterScripts.parkArguments("g", 0,
                records.stream().map(DeadLetterRecord::toPark).toList());
        return redis.eval(LuaScripts.Script.DEAD_LETTER, List.of(stream, dlq, RedisKeys.deadLetterStats(dlq),
                RedisKeys.notBefore(stream), RedisKeys.replayed(dlq), RedisKeys.replayedAt(dlq)), args);
    }

    private static String text(Response r) {
        if (r.type() == ResponseType.MULTI) {
            List<String> items = new ArrayList<>();
            r.forEach(i -> items.add(text(i)));
            return items.toString();
        }
        return String.valueOf(r);
    }
}
