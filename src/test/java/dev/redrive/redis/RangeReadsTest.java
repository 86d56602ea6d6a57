package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;

/**
 * lib/ranges.lua, which claim.lua and dead-letter.lua use to read a batch's entries a range at a
 * time: whatever the spacing of the ids asked for (dense, sparse, trimmed, past the end, with
 * sequence parts beyond a double's precision), it finds exactly the ids that exist.
 */
class RangeReadsTest {

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();
    static String script;

    @BeforeAll
    static void start() throws Exception {
        try (InputStream in = LuaScripts.class.getResourceAsStream("/lua/lib/ranges.lua")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8) + """
                    local ids = {}
                    for i = 2, #ARGV do ids[#ids + 1] = ARGV[i] end
                    local found = ARGV[1] == 'entries' and entriesOf(KEYS[1], ids) or pendingOf(KEYS[1], 'g', 0, ids)
                    local out = {}
                    for id, item in pairs(found) do
                      assert(item[1] == id)
                      out[#out + 1] = id
                    end
                    return out
                    """;
        }
        for (int i = 1; i <= 1000; i++) {
            call("XADD", "s", i + "-1", "n", Integer.toString(i));
        }
        call("XDEL", "s", "500-1");
        call("XGROUP", "CREATE", "s", "g", "0");
        call("XREADGROUP", "GROUP", "g", "c", "COUNT", "2000", "STREAMS", "s", ">");
        for (int i = 2; i <= 1000; i += 2) {
            call("XACK", "s", "g", i + "-1");
        }
    }

    @Test
    void denseIdsAreFoundInRanges() throws Exception {
        List<String> asked = new ArrayList<>();
        for (int i = 101; i <= 350; i++) {
            asked.add(i + "-1");
        }
        assertEquals(new TreeSet<>(asked), found("entries", "s", asked));
    }

    @Test
    void sparseIdsTrimmedOnesAndOnesPastTheEndAreFoundExactly() throws Exception {
        List<String> asked = new ArrayList<>();
        Set<String> existing = new TreeSet<>();
        for (int i = 3; i <= 1000; i += 7) {
            asked.add(i + "-1");
            if (i != 500) {
                existing.add(i + "-1");
            }
        }
        asked.add("500-1");
        asked.add("2000-0");
        asked.add(asked.get(0));
        asked.add(0, "999-1");
        existing.add("999-1");
        assertEquals(existing, found("entries", "s", asked));
    }

    @Test
    void pendingEntriesAreFoundExactly() throws Exception {
        List<String> asked = new ArrayList<>();
        Set<String> pending = new TreeSet<>();
        for (int i = 1; i <= 1000; i += 3) {
            asked.add(i + "-1");
            if (i % 2 == 1 && i != 500) {
                pending.add(i + "-1");
            }
        }
        assertEquals(pending, found("pending", "s", asked));
    }

    @Test
    void idsAreOrderedAsRedisOrdersThem() throws Exception {
        List<String> ids = List.of("5-9007199254740993", "6-0", "5-9007199254740992", "5-1", "10-0");
        for (String id : List.of("5-1", "5-9007199254740992", "5-9007199254740993", "6-0", "10-0")) {
            call("XADD", "big", id, "n", "1");
        }
        assertEquals(new TreeSet<>(ids), found("entries", "big", ids));
    }

    private static Set<String> found(String what, String key, List<String> ids) throws Exception {
        List<Object> args = new ArrayList<>(List.of("EVAL", script, "1", key, what));
        args.addAll(ids);
        Set<String> out = new TreeSet<>();
        call(args.toArray()).forEach(r -> out.add(r.toString()));
        return out;
    }

    private static Response call(Object... args) throws Exception {
        return redis.call(args);
    }
}
