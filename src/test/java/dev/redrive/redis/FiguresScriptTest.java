package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;

/**
 * figures.lua, the one call per gauge interval for every queue: exact figures for a busy queue,
 * and zeros (not an error that would blank every queue's gauges) for a queue whose stream, group
 * or dead-letter stream is missing or of another type.
 */
class FiguresScriptTest {

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();

    @Test
    void everyQueuesFiguresInOneCallWhateverIsMissing() throws Exception {
        nineEntriesAndGroupG("busy");
        call("XREADGROUP", "GROUP", "g", "worker-1", "COUNT", "3", "STREAMS", "busy", ">");
        call("XREADGROUP", "GROUP", "g", "redrive-retry", "COUNT", "2", "STREAMS", "busy", ">");
        for (int i = 0; i < 7; i++) {
            call("XADD", "{busy}:dlq", "*", "n", "1");
        }
        call("XADD", "nogroup", "*", "n", "1");
        call("SET", "{odd}:dlq", "not a stream");
        call("SET", "odd", "not a stream");

        Response reply = figures(List.of("busy", "{busy}:dlq", "g", "absent", "{absent}:dlq", "g",
                "nogroup", "{nogroup}:dlq", "g", "odd", "{odd}:dlq", "g"));

        assertEquals(4, reply.size());
        assertEquals("[7, 4, 2, 5, 1-0, [redrive-retry, 2, worker-1, 3]]", text(reply.get(0)));
        for (int q = 1; q < 4; q++) {
            assertEquals("[0, -1, 0, 0, , []]", text(reply.get(q)), "queue " + q);
        }
    }

    /**
     * A promoted replica's group: Redis 7.0 does not replicate a group's entries-read with its
     * reads, so after a failover XINFO's lag counts entries the group was handed long ago. Here the
     * same state is made with XGROUP SETID ... ENTRIESREAD (seen on a real replica: 41 read of 100,
     * lag 59, every entry delivered and acked).
     */
    @Test
    void aGroupThatReadEverythingHasNoLagWhateverEntriesReadSays() throws Exception {
        nineEntriesAndGroupG("promoted");
        call("XREADGROUP", "GROUP", "g", "w", "COUNT", "9", "STREAMS", "promoted", ">");
        call("XGROUP", "SETID", "promoted", "g", "9-0", "ENTRIESREAD", "1");
        assertEquals("[0, 0, 1, 9, 1-0, [w, 9]]", text(figures(List.of("promoted", "{promoted}:dlq", "g")).get(0)));

        call("XADD", "promoted", "10-0", "n", "1");
        assertEquals("9", text(figures(List.of("promoted", "{promoted}:dlq", "g")).get(0).get(1)),
                "with an entry unread, Redis' own figure (too high by what the replica missed) is all there is");
    }

    /** Entries 1-0 to 9-0 in {@code stream}, and group g on it from the start, nothing read. */
    private static void nineEntriesAndGroupG(String stream) throws Exception {
        for (int i = 1; i <= 9; i++) {
            call("XADD", stream, i + "-0", "n", "1");
        }
        call("XGROUP", "CREATE", stream, "g", "0");
    }

    private static String text(Response r) {
        if (r.type() == io.vertx.redis.client.ResponseType.MULTI) {
            List<String> items = new ArrayList<>();
            r.forEach(i -> items.add(text(i)));
            return items.toString();
        }
        return r.toString();
    }

    private static Response figures(List<String> triples) throws Exception {
        String script;
        try (InputStream in = LuaScripts.class.getResourceAsStream("/lua/figures.lua")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Object> args = new ArrayList<>(List.of("EVAL", script, Integer.toString(2 * triples.size() / 3)));
        for (int i = 0; i < triples.size(); i += 3) {
            args.add(triples.get(i));
            args.add(triples.get(i + 1));
        }
        for (int i = 2; i < triples.size(); i += 3) {
            args.add(triples.get(i));
        }
        return call(args.toArray());
    }

    private static Response call(Object... args) throws Exception {
        return redis.call(args);
    }
}
