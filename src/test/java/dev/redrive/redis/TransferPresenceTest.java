package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;

/**
 * transfer.lua claims an entry only if it is still in its stream, and reads none it knows is
 * there (lib/present.lua: at or after the stream's first entry and after its greatest deleted
 * id, from XINFO STREAM, most ids told by one string comparison). Every way an entry leaves a
 * stream, every shape of id, and ids that are none must come out exactly: the removed ones
 * answered and still pending, the others claimed, nothing written before a refusal.
 */
class TransferPresenceTest {

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();
    static int streams;

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
        removalIsSeen(way, List.of("1-1", "2-1", "3-1", "4-1", "5-1", "6-1"), commands, removed);
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
        removalIsSeen(way, List.of("5-1", "5-2", "5-3", "9-1", "10-1", "123-1"), commands, removed);
    }

    /** A transfer of a single id reads it rather than asking XINFO: trimmed or there, it comes out right. */
    @Test
    void aSingleIdIsReadAndToldExactly() throws Exception {
        String s = streamOf("single", 3);
        redis.call("XDEL", s, "2-1");
        redis.call("CONFIG", "RESETSTAT");

        assertEquals(List.of("2-1"), transferAll(s, List.of("2-1")));
        assertEquals(List.of(), transferAll(s, List.of("3-1")));

        assertTrue(!redis.call("INFO", "commandstats").toString().contains("cmdstat_xinfo"));
        assertEquals("[2-1, w, 1]", redis.ownerAndCount(s, "g", "2-1"));
        assertEquals("[3-1, w, 2]", redis.ownerAndCount(s, "g", "3-1"));
    }

    /**
     * An id that is not one Redis takes (not digits, or a sequence of 20 digits and more) is
     * refused before anything is written: no claim, no not-before.
     */
    @ParameterizedTest
    @CsvSource({ "3-x", "3-123456789012345678901" })
    void anIdThatIsNoIdIsRefusedBeforeAnyWrite(String notAnId) throws Exception {
        String s = streamOf("noid", 3);

        Exception refused = assertThrows(Exception.class,
                () -> redis.eval(LuaScripts.Script.TRANSFER, List.of(s, RedisKeys.notBefore(s)),
                        List.of("g", "w", 2, "2-1", 500, notAnId, 500)));

        assertTrue(refused.getMessage().contains("Invalid stream ID"), refused.getMessage());
        assertEquals("[2-1, w, 1]", redis.ownerAndCount(s, "g", "2-1"));
        assertEquals(0L, redis.call("EXISTS", RedisKeys.notBefore(s)).toLong());
    }

    /** The shortcut is taken: a transfer of entries that are all there reads none of them. */
    @Test
    void aTransferOfEntriesAllThereReadsNone() throws Exception {
        String s = streamOf("there", 4);
        redis.call("XDEL", s, "1-1"); // a deletion before the ids: they are past it
        redis.call("CONFIG", "RESETSTAT");

        Response trimmed = redis.eval(LuaScripts.Script.TRANSFER, List.of(s, RedisKeys.notBefore(s)),
                List.of("g", "w", 2, "2-1", -1, "3-1", -1, "4-1", -1));

        assertEquals(0, trimmed.size());
        String stats = redis.call("INFO", "commandstats").toString();
        assertTrue(!stats.contains("cmdstat_xrange:") && !stats.contains("cmdstat_xpending:"), stats);
        assertEquals("[4-1, w, 2]", redis.ownerAndCount(s, "g", "4-1"));
    }

    /** An id given twice keeps the Retry-After it was given, whatever order the copies come in. */
    @Test
    void anIdGivenTwiceKeepsItsHint() throws Exception {
        String s = streamOf("twice", 3);

        redis.eval(LuaScripts.Script.TRANSFER, List.of(s, RedisKeys.notBefore(s)),
                List.of("g", "w", 2, "2-1", 5000, "2-1", -1, "3-1", -1, "3-1", 5000));

        Response now = redis.call("TIME");
        long nowMillis = now.get(0).toLong() * 1000 + now.get(1).toLong() / 1000;
        for (String id : List.of("2-1", "3-1")) {
            long notBefore = redis.call("HGET", RedisKeys.notBefore(s), id).toLong();
            assertTrue(notBefore > nowMillis + 4000, id + " not before " + notBefore + ", now " + nowMillis);
        }
        assertEquals("[2-1, w, 2]", redis.ownerAndCount(s, "g", "2-1"));
    }

    /**
     * A stream of {@code ids}, all read by w; then {@code commands} (';' between commands, ','
     * between arguments, %s the stream); then an immediate retry of every id must answer exactly
     * {@code removed} (space-separated, or none), leave all of them pending and count the next
     * attempt of only those still there.
     */
    private static void removalIsSeen(String way, List<String> ids, String commands, String removed) throws Exception {
        String s = streamOf("gone", ids);
        for (String command : commands.split(";")) {
            redis.call(command.replace("%s", s).split(","));
        }

        List<String> answered = transferAll(s, ids);

        assertEquals(removed == null ? List.of() : List.of(removed.split(" ")), answered, way + ": the removed ones");
        assertEquals(ids, redis.pendingIds(s, "g"), way + ": nothing dropped from the PEL");
        for (String id : ids) {
            assertEquals("[" + id + ", w, " + (answered.contains(id) ? 1 : 2) + "]", redis.ownerAndCount(s, "g", id),
                    way + ": only what is there counts the next attempt");
        }
    }

    /** Entries {@code 1-1} to {@code n-1} of a new stream, all read by consumer w (delivery 1). */
    private static String streamOf(String name, int n) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            ids.add(i + "-1");
        }
        return streamOf(name, ids);
    }

    /** A new stream of entries with these ids, all read by consumer w (delivery 1). */
    private static String streamOf(String name, List<String> ids) throws Exception {
        String s = name + (++streams);
        for (String id : ids) {
            redis.call("XADD", s, id, "kind", "job " + id);
        }
        redis.call("XGROUP", "CREATE", s, "g", "0");
        redis.call("XREADGROUP", "GROUP", "g", "w", "STREAMS", s, ">");
        return s;
    }

    /** An immediate retry of {@code ids} to w (count 2): the ids it answers trimmed. */
    private static List<String> transferAll(String stream, List<String> ids) throws Exception {
        List<Object> args = new ArrayList<>(List.of("g", "w", 2));
        ids.forEach(id -> {
            args.add(id);
            args.add(-1);
        });
        List<String> answered = new ArrayList<>();
        redis.eval(LuaScripts.Script.TRANSFER, List.of(stream, RedisKeys.notBefore(stream)), args)
                .forEach(t -> answered.add(t.get(0).toString()));
        return answered;
    }
}
