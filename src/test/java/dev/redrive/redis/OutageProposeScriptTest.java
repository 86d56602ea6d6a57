package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.redrive.testing.ScriptRedis;
import io.vertx.redis.client.Response;

/**
 * outage-propose.lua, redrive's own proposal after a queue's outage: one per outage however many
 * replicas report it (an outage overlapping one already proposed stores nothing), a new outage
 * proposed again, old outages forgotten, and nothing written when a key holds another type.
 */
class OutageProposeScriptTest {

    @RegisterExtension
    static final ScriptRedis redis = new ScriptRedis();

    static final long DAY = 86_400_000L;
    static final String SCRIPT = new LuaScripts().body(LuaScripts.Script.OUTAGE_PROPOSE);

    /** A queue's keys, each test its own dead-letter stream's. */
    record Keys(String dlq) {
        String outages() {
            return RedisKeys.proposedOutages(dlq, "orders");
        }
    }

    /** Runs the script for an outage of queue orders from {@code first} to {@code closed} (Redis' clock, ms). */
    static Response propose(Keys keys, String id, long first, long closed, long remember) throws Exception {
        List<Object> args = new ArrayList<>(List.of("EVAL", SCRIPT, "5", RedisKeys.proposal(keys.dlq(), id),
                RedisKeys.proposals(keys.dlq()), RedisKeys.waitingProposals(keys.dlq()), RedisKeys.audit(keys.dlq()),
                keys.outages(), id, Long.toString(DAY), Long.toString(2 * DAY), Long.toString(first),
                Long.toString(closed), Long.toString(remember)));
        args.addAll(List.of("id", id, "dlq", keys.dlq(), "state", "proposed", "proposed-by", "redrive", "note", "outage"));
        return redis.call(args.toArray());
    }

    static long now() throws Exception {
        Response time = redis.call("TIME");
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }

    static String text(Response r) {
        List<String> items = new ArrayList<>();
        r.forEach(i -> items.add(i.toString()));
        return items.toString();
    }

    @Test
    void theReplicaThatSeesTheOutageEndFirstProposesAndAnOverlappingOneStoresNothing() throws Exception {
        Keys keys = new Keys("{first}:dlq");
        long t = now();
        Response created = propose(keys, "p1", t - 20_000, t - 1_000, DAY);
        assertEquals("created", created.get(0).toString());
        assertTrue(Math.abs(created.get(1).toLong() - t) < 60_000, "Redis' time: " + created);
        assertEquals("redrive", redis.call("HGET", RedisKeys.proposal(keys.dlq(), "p1"), "proposed-by").toString());
        assertEquals("[" + (t - 20_000) + " " + (t - 1_000) + " p1]",
                text(redis.call("ZRANGE", keys.outages(), "0", "-1")));
        assertEquals("[proposal, p1, redrive]", audited(keys));

        // Another replica: its breaker opened a little later and closed a little later.
        assertEquals("[proposed-before, p1]", text(propose(keys, "p2", t - 19_000, t - 500, DAY)));
        // Its outage ends where the first began, or begins where it ended: the same outage still.
        assertEquals("[proposed-before, p1]", text(propose(keys, "p2", t - 30_000, t - 20_000, DAY)));
        assertEquals("[proposed-before, p1]", text(propose(keys, "p2", t - 1_000, t - 100, DAY)));
        assertEquals(0, redis.call("EXISTS", RedisKeys.proposal(keys.dlq(), "p2")).toInteger());
        assertEquals(1, redis.call("ZCARD", RedisKeys.proposals(keys.dlq())).toInteger());
        assertEquals(1, redis.call("ZCARD", RedisKeys.waitingProposals(keys.dlq())).toInteger());
        assertEquals("[proposal, p1, redrive]", audited(keys), "nothing audited for the replicas that did not propose");
    }

    @Test
    void aLaterOutageIsProposedAgainAndOutagesAreForgottenAfterAWhile() throws Exception {
        Keys keys = new Keys("{later}:dlq");
        long t = now();
        assertEquals("created", propose(keys, "p1", t - 60_000, t - 50_000, DAY).get(0).toString());
        assertEquals("created", propose(keys, "p2", t - 49_999, t - 1_000, DAY).get(0).toString(),
                "it began after the first ended: another outage");
        assertEquals(2, redis.call("ZCARD", keys.outages()).toInteger());
        long ttl = redis.call("PTTL", keys.outages()).toLong();
        assertTrue(ttl > 0 && ttl <= DAY, "the set expires: " + ttl);

        // Remembered 10 s: the first outage, 50 s ago, is forgotten when the next is stored.
        assertEquals("created", propose(keys, "p3", t - 900, t, 10_000).get(0).toString());
        assertEquals("[" + (t - 49_999) + " " + (t - 1_000) + " p2, " + (t - 900) + " " + t + " p3]",
                text(redis.call("ZRANGE", keys.outages(), "0", "-1")));
        assertEquals("created", propose(keys, "p4", t - 55_000, t - 52_000, 10_000).get(0).toString(),
                "an outage overlapping only a forgotten one is proposed");
    }

    @Test
    void aKeyOfAnotherTypeRefusesTheWholeCallBeforeItWrites() throws Exception {
        Keys keys = new Keys("{typed}:dlq");
        redis.call("SET", keys.outages(), "not a sorted set");
        long t = now();
        Response refused = propose(keys, "p1", t - 2_000, t, DAY);
        assertEquals("wrong-type", refused.get(0).toString());
        assertTrue(refused.get(1).toString().contains(keys.outages()), refused.toString());
        assertEquals(0, redis.call("EXISTS", RedisKeys.proposal(keys.dlq(), "p1"), RedisKeys.proposals(keys.dlq()),
                RedisKeys.waitingProposals(keys.dlq()), RedisKeys.audit(keys.dlq())).toInteger());
    }

    /** The audit stream's records, as action, proposal, actor. */
    static String audited(Keys keys) throws Exception {
        List<String> out = new ArrayList<>();
        for (Response entry : redis.call("XRANGE", RedisKeys.audit(keys.dlq()), "-", "+")) {
            Response fields = entry.get(1);
            for (String name : List.of("action", "proposal", "actor")) {
                for (int i = 0; i < fields.size(); i += 2) {
                    if (fields.get(i).toString().equals(name)) {
                        out.add(fields.get(i + 1).toString());
                    }
                }
            }
        }
        return out.toString();
    }
}
