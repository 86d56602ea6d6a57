package dev.redrive.redrive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.redrive.redis.LuaScripts;
import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;

/**
 * redrive-step.lua deletes the dead letters it moved that open the stream with one XTRIM MINID
 * and the others with XDEL. Whatever the mix, exactly the moved entries leave the dead-letter
 * stream: an entry the filter skips, one past the pace or past the task's end stays, fields and
 * all, wherever it sits; so does one whose origin is no stream, with the reason in the task.
 */
class RedriveStepTrimTest {

    static final String DLQ = "{t}:dlq";
    static final String TASK = "{t}:dlq:redrive:t1";
    static final List<String> KEYS = List.of(DLQ, "{t}:dlq:stats", "{t}:dlq:audit", TASK, TASK + ":canary",
            "{t}:dlq:replayed", "{t}:dlq:replayed-at", "{t}");

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();
    static String sha;

    @BeforeAll
    static void start() throws Exception {
        sha = redis.call("SCRIPT", "LOAD", new LuaScripts().body(LuaScripts.Script.REDRIVE_STEP)).toString();
    }

    @BeforeEach
    void clean() throws Exception {
        redis.call("FLUSHALL");
    }

    /** Dead letters with ids 1-1, 2-1, ...: job a matches the filter, job b does not. */
    void park(String... jobs) throws Exception {
        for (int i = 0; i < jobs.length; i++) {
            redis.call("XADD", DLQ, (i + 1) + "-1", "origin-stream", "{t}", "origin-id", "9-" + (i + 1), "failure",
                    "exhausted", "fingerprint", "f1", "job", jobs[i], "replays", "0", "f:payload", "p" + (i + 1));
        }
        redis.call("XADD", "{t}", "*", "warm", "1");
    }

    /** One step of a task over job a, from the task's cursor to {@code until}, moving at most {@code pace}. */
    long step(String until, int pace) throws Exception {
        return step(until, pace, List.of());
    }

    /** The same, with more streams it may write to besides {@code {t}}. */
    long step(String until, int pace, List<String> origins) throws Exception {
        redis.call("HSET", TASK, "state", "running", "owner", "r1", "until", until, "canary", "0");
        List<Object> args = new ArrayList<>(List.of("EVALSHA", sha, KEYS.size() + origins.size()));
        args.addAll(KEYS);
        args.addAll(origins);
        args.addAll(List.of("", "a", "", "", "", "", "", "", "r1", "tester", "2026-12-01T00:00:00Z", "note", "t1",
                "200", Integer.toString(pace), ""));
        Response reply = redis.call(args.toArray());
        assertEquals("ok", reply.get(0).toString(), reply.toString());
        return reply.get(2).toLong();
    }

    List<String> left() throws Exception {
        List<String> out = new ArrayList<>();
        for (Response e : redis.call("XRANGE", DLQ, "-", "+")) {
            out.add(e.get(0) + " " + e.get(1).get(9) + " " + e.get(1).get(13));
        }
        return out;
    }

    long replayed() throws Exception {
        return redis.call("XLEN", "{t}").toLong() - 1;
    }

    @Test
    void movedEntriesOnEitherSideOfASkippedOneLeaveAndTheSkippedOneStaysWhole() throws Exception {
        park("a", "a", "b", "a", "a");
        assertEquals(4, step("+", 200));
        assertEquals(List.of("3-1 b p3"), left());
        assertEquals(4, replayed());
    }

    @Test
    void aStreamThatDoesNotOpenWithAMoveKeepsItsHead() throws Exception {
        park("b", "a", "a");
        assertEquals(2, step("+", 200));
        assertEquals(List.of("1-1 b p1"), left());
    }

    @Test
    void aPaceThatStopsHalfWayLeavesTheRestThenTheLastStepEmptiesTheStream() throws Exception {
        park("a", "a", "a");
        assertEquals(2, step("+", 2));
        assertEquals(List.of("3-1 a p3"), left());
        assertEquals(1, step("+", 2));
        assertEquals(List.of(), left());
        assertEquals("stream", redis.call("TYPE", DLQ).toString(), "the stream stays, empty, as XDEL leaves it");
        assertEquals(3, replayed());
    }

    /**
     * A configured queue's name holding a string: the entries parked from it are skipped, with the
     * reason in the task, and every other origin's entries move. Before, the step refused to move
     * anything, and the task held its dead-letter stream for good.
     */
    @Test
    void anOriginOfAnotherTypeSkipsOnlyItsOwnEntriesAndSaysWhy() throws Exception {
        park("a", "a");
        redis.call("SET", "{t}wt", "a string");
        redis.call("XADD", DLQ, "3-1", "origin-stream", "{t}wt", "origin-id", "9-3", "failure", "exhausted",
                "fingerprint", "f1", "job", "a", "replays", "0", "f:payload", "p3");
        assertEquals(2, step("+", 200, List.of("{t}wt")));
        assertEquals(List.of("3-1 a p3"), left());
        assertEquals(2, replayed());
        assertEquals("1", redis.call("HGET", TASK, "skipped").toString());
        assertEquals("skipped entries: {t}wt is a string, not a stream", redis.call("HGET", TASK, "skip-reason").toString());
        assertEquals("a string", redis.call("GET", "{t}wt").toString(), "the key of another type is left as it is");
    }

    @Test
    void entriesPastTheTasksEndStay() throws Exception {
        park("a", "a", "a", "b");
        assertEquals(2, step("2-1", 200));
        assertEquals(List.of("3-1 a p3", "4-1 b p4"), left());
    }
}
