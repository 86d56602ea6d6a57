package dev.redrive.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.Fingerprint;
import dev.redrive.redis.DeadLetterScripts;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Parks entries with the project's own dead-letter.lua, each record written by the project's
 * DeadLetterRecord and its keys named by RedisKeys (the service's own classes are on the class
 * path), so the records are what redrive writes: 1,000 script calls pipelined at a time.
 */
final class DeadLetters {

    private final Harness h;

    DeadLetters(Harness h) {
        this.h = h;
    }

    void park(int n) throws Exception {
        park(n, List.of(new Fingerprint("bench0000", "bench: always fails")), List.of("bench handler always fails"));
    }

    /** As above, the i-th entry with the cause {@code causes[i % k]} and its reason. */
    void park(int n, List<Fingerprint> causes, List<String> reasons) throws Exception {
        String sha = h.call("SCRIPT", "LOAD", new LuaScripts().body(LuaScripts.Script.DEAD_LETTER)).toString();
        String origin = "bench-origin";
        h.call("DEL", origin);
        h.gen(origin, n, 0);
        h.call("XGROUP", "CREATE", origin, Harness.GROUP, "0");
        Instant now = Instant.now();
        int seeded = 0;
        List<String> keys = List.of(origin, Harness.DLQ, RedisKeys.deadLetterStats(Harness.DLQ), RedisKeys.notBefore(origin),
                RedisKeys.replayed(Harness.DLQ), RedisKeys.replayedAt(Harness.DLQ));
        for (int done = 0; done < n; ) {
            Response r = h.call("XREADGROUP", "GROUP", Harness.GROUP, "seed", "COUNT", "1000", "STREAMS", origin, ">");
            List<Request> parks = new ArrayList<>();
            for (Response e : r.get(0).get(1)) {
                String id = e.get(0).toString();
                Fingerprint cause = causes.get(seeded % causes.size());
                String reason = reasons.get(seeded++ % reasons.size());
                Request q = Request.cmd(Command.EVALSHA).arg(sha).arg(keys.size());
                keys.forEach(q::arg);
                DeadLetterRecord record = new DeadLetterRecord(Harness.STREAM, id, Harness.GROUP, "seed", "bench",
                        "exhausted", "bench", reason, cause, 3, 3, now, now, now);
                DeadLetterScripts.parkArguments(Harness.GROUP, 0, List.of(record.toPark())).forEach(q::arg);
                parks.add(q);
            }
            h.redis.batch(parks);
            done += parks.size();
        }
    }
}
