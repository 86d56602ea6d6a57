package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
    static final LuaScripts SCRIPTS = new LuaScripts();
    static int streams;

    /** The premise: without the checks, Redis 7 drops a trimmed entry from the PEL when it is claimed. */
    @Test
    void aPlainXclaimDropsATrimmedEntryFromThePel() throws Exception {
        String s = seed();
        redis.call("XCLAIM", s, "g", "w", "0", "1-1", "JUSTID");
        assertEquals(List.of("2-1", "3-1", "4-1"), pendingIds(s));
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

        Response trimmed = run(LuaScripts.Script.TRANSFER, List.of(s, RedisKeys.notBefore(s)), args);

        assertEquals("[[1-1, 1, w], [2-1, 1, w]]", text(trimmed), path + ": the trimmed ones, as XPENDING saw them");
        assertEquals(List.of("1-1", "2-1", "3-1", "4-1"), pendingIds(s), path + ": nothing dropped from the PEL");
        assertEquals("[3-1, " + to + ", " + countAfter + "]", ownerAndCount(s, "3-1"), path);
        assertEquals(hint < 0 ? 0 : 2, redis.call("HLEN", RedisKeys.notBefore(s)).toInteger(),
                path + ": hints only for entries claimed");

        Map<String, String> records = parkTrimmed(s, List.of("1-1", "2-1"));

        assertEquals(List.of("3-1", "4-1"), pendingIds(s), path + ": the trimmed ones are parked and acked");
        assertEquals(2, records.size());
        records.values().forEach(r -> {
            assertTrue(r.contains("failure=missing"), r);
            assertTrue(r.contains("reason=entry trimmed from " + s + " before it completed; last error: "
                    + "java.lang.IllegalStateException: provider answered 503"), r);
            assertTrue(r.contains("snapshot=missing") && r.contains("attempts=1") && r.contains("origin-stream=" + s), r);
        });
    }

    /**
     * transfer.lua reads no entry it knows is there (at or after the stream's first entry and
     * after its greatest deleted id, from XINFO STREAM): every way an entry leaves a stream must
     * still be seen, whichever side of those bounds the other ids fall. Entries 1-1 to 6-1 are
     * read by w; the removal runs; an immediate retry of all six answers exactly the removed ones.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "trimmed from the head | XTRIM,%s,MAXLEN,4 | 1-1 2-1",
            "trimmed by MINID, exactly | XTRIM,%s,MINID,4-1 | 1-1 2-1 3-1",
            "deleted from the middle | XDEL,%s,3-1,4-1 | 3-1 4-1",
            "the last entry deleted | XDEL,%s,6-1 | 6-1",
            "the first entry deleted | XDEL,%s,1-1 | 1-1",
            "deleted, then trimmed | XDEL,%s,5-1;XTRIM,%s,MAXLEN,3 | 1-1 2-1 5-1",
            "all of them | XTRIM,%s,MAXLEN,0 | 1-1 2-1 3-1 4-1 5-1 6-1",
            "deleted, then more added | XDEL,%s,2-1;XADD,%s,7-1,kind,job 7 | 2-1" })
    void everyWayAnEntryLeavesItsStreamIsSeenByTransfer(String way, String commands, String removed)
            throws Exception {
        String s = "gone" + (++streams);
        List<String> ids = List.of("1-1", "2-1", "3-1", "4-1", "5-1", "6-1");
        for (String id : ids) {
            redis.call("XADD", s, id, "kind", "job " + id);
        }
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");
        for (String command : commands.split(";")) {
            redis.call(command.replace("%s", s).split(","));
        }

        List<String> answered = transferAll(s, ids);

        assertEquals(List.of(removed.split(" ")), answered, way + ": the removed ones, still pending");
        assertEquals(ids, pendingIds(s), way + ": nothing dropped from the PEL");
        for (String id : ids) {
            assertEquals("[" + id + ", w, " + (answered.contains(id) ? 1 : 2) + "]", ownerAndCount(s, id),
                    way + ": only what is there counts the next attempt");
        }
    }

    /**
     * The shortcut tells an id by plain string order only when its millisecond part has as many
     * digits as the one after the bound's; ids in the bound's own millisecond, or wider or
     * narrower ones, are told another way, and each must still come out right. Entries sit in
     * millisecond 5 (three of them), 9, 10 and 123; the removal runs; an immediate retry of all
     * answers exactly the removed ones.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "deleted in the millisecond of others | XDEL,%s,5-2 | 5-2",
            "trimmed to the middle of a millisecond | XTRIM,%s,MINID,5-3 | 5-1 5-2",
            "deleted where the width changes | XDEL,%s,9-1 | 9-1",
            "deleted past the width change | XDEL,%s,10-1 | 10-1",
            "trimmed past the width change | XTRIM,%s,MINID,11-0 | 5-1 5-2 5-3 9-1 10-1",
            "nothing removed | XLEN,%s | " })
    void idsOfTheBoundsMillisecondAndOfOtherWidthsAreToldExactly(String way, String commands, String removed)
            throws Exception {
        String s = "widths" + (++streams);
        List<String> ids = List.of("5-1", "5-2", "5-3", "9-1", "10-1", "123-1");
        for (String id : ids) {
            redis.call("XADD", s, id, "kind", "job " + id);
        }
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");
        redis.call(commands.replace("%s", s).split(","));

        List<String> answered = transferAll(s, ids);

        assertEquals(removed == null ? List.of() : List.of(removed.split(" ")), answered, way);
        assertEquals(ids, pendingIds(s), way + ": nothing dropped from the PEL");
        for (String id : ids) {
            assertEquals("[" + id + ", w, " + (answered.contains(id) ? 1 : 2) + "]", ownerAndCount(s, id), way);
        }
    }

    /** A transfer of a single id reads it rather than asking XINFO: trimmed or there, it comes out right. */
    @Test
    void aSingleIdIsReadAndToldExactly() throws Exception {
        String s = "single" + (++streams);
        for (int i = 1; i <= 3; i++) {
            redis.call("XADD", s, i + "-1", "kind", "job " + i);
        }
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");
        redis.call("XDEL", s, "2-1");
        redis.call("CONFIG", "RESETSTAT");

        assertEquals(List.of("2-1"), transferAll(s, List.of("2-1")));
        assertEquals(List.of(), transferAll(s, List.of("3-1")));

        assertTrue(!redis.call("INFO", "commandstats").toString().contains("cmdstat_xinfo"));
        assertEquals("[2-1, w, 1]", ownerAndCount(s, "2-1"));
        assertEquals("[3-1, w, 2]", ownerAndCount(s, "3-1"));
    }

    /** An id that is not one is refused before anything is written: no claim, no not-before. */
    @Test
    void anIdThatIsNoIdIsRefusedBeforeAnyWrite() throws Exception {
        String s = "noid" + (++streams);
        for (int i = 1; i <= 3; i++) {
            redis.call("XADD", s, i + "-1", "kind", "job " + i);
        }
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");

        Exception refused = assertThrows(Exception.class,
                () -> run(LuaScripts.Script.TRANSFER, List.of(s, RedisKeys.notBefore(s)),
                        List.of("g", "w", 2, "2-1", 500, "3-x", 500)));

        assertTrue(refused.getMessage().contains("Invalid stream ID"), refused.getMessage());
        assertEquals("[2-1, w, 1]", ownerAndCount(s, "2-1"));
        assertEquals(0L, redis.call("EXISTS", RedisKeys.notBefore(s)).toLong());
    }

    /** The shortcut is taken: a transfer of entries that are all there reads none of them. */
    @Test
    void aTransferOfEntriesAllThereReadsNone() throws Exception {
        String s = "there" + (++streams);
        for (int i = 1; i <= 4; i++) {
            redis.call("XADD", s, i + "-1", "kind", "job " + i);
        }
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");
        redis.call("XDEL", s, "1-1"); // a deletion before the ids: they are past it
        redis.call("CONFIG", "RESETSTAT");

        Response trimmed = run(LuaScripts.Script.TRANSFER, List.of(s, RedisKeys.notBefore(s)),
                List.of("g", "w", 2, "2-1", -1, "3-1", -1, "4-1", -1));

        assertEquals(0, trimmed.size());
        String stats = redis.call("INFO", "commandstats").toString();
        assertTrue(!stats.contains("cmdstat_xrange:") && !stats.contains("cmdstat_xpending:"), stats);
        assertEquals("[4-1, w, 2]", ownerAndCount(s, "4-1"));
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
        assertEquals(List.of("1-1", "2-1", "4-1"), pendingIds(s), "the trimmed one stays pending");
        assertEquals(1, redis.call("XLEN", "{" + s + "}:dlq").toInteger());

        Response again = park(s, List.of(exhausted.get(0).asMissing()));

        assertEquals("parked", again.get(0).get(0).toString());
        assertEquals(List.of("2-1", "4-1"), pendingIds(s));
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
        List<Object> args = new ArrayList<>(List.of("g", "0"));
        for (DeadLetterRecord r : records) {
            args.add(r.originId());
            args.add(r.failureKind());
            args.add(r.fingerprint().id());
            args.add(r.fingerprint().text());
            args.add(r.pairs().size());
            args.addAll(r.pairs());
        }
        return run(LuaScripts.Script.DEAD_LETTER, List.of(stream, dlq, RedisKeys.deadLetterStats(dlq),
                RedisKeys.notBefore(stream), RedisKeys.replayed(dlq), RedisKeys.replayedAt(dlq)), args);
    }

    private static Response run(LuaScripts.Script script, List<String> keys, List<Object> args) throws Exception {
        List<Object> call = new ArrayList<>(List.of("EVAL", SCRIPTS.body(script), keys.size()));
        call.addAll(keys);
        call.addAll(args);
        return redis.call(call.toArray());
    }

    /** An immediate retry of {@code ids} to w (count 2): the ids it answers trimmed. */
    private static List<String> transferAll(String stream, List<String> ids) throws Exception {
        List<Object> args = new ArrayList<>(List.of("g", "w", 2));
        ids.forEach(id -> {
            args.add(id);
            args.add(-1);
        });
        List<String> answered = new ArrayList<>();
        run(LuaScripts.Script.TRANSFER, List.of(stream, RedisKeys.notBefore(stream)), args)
                .forEach(t -> answered.add(t.get(0).toString()));
        return answered;
    }

    private static List<String> pendingIds(String stream) throws Exception {
        List<String> ids = new ArrayList<>();
        redis.call("XPENDING", stream, "g", "-", "+", "100").forEach(p -> ids.add(p.get(0).toString()));
        return ids;
    }

    private static String ownerAndCount(String stream, String id) throws Exception {
        Response p = redis.call("XPENDING", stream, "g", id, id, "1").get(0);
        return "[" + p.get(0) + ", " + p.get(1) + ", " + p.get(3) + "]";
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
