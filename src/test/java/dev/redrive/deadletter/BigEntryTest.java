package dev.redrive.deadletter;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.redrive.job.PackedFields;
import dev.redrive.job.ReservedField;
import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/**
 * Entries of any size Redis accepts are parked, replayed and discarded whole (issue 10, item 1):
 * a command from Lua can't carry more than about 8,000 arguments, so a job of 4,100 fields was
 * acked and lost. And a job that truly can't be parked stays pending while the others are parked.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class BigEntryTest {

    @Inject
    @Own("big")
    TestQueue big;

    @Inject
    @Own("other")
    TestQueue other;

    @Inject
    RedisDataSource redis;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @Test
    void aJobOf4100FieldsIsParkedReplayedAndDiscardedByteForByte() {
        roundTrip(fields(4_100, 0));
    }

    @Test
    void aJobOf20000FieldsWithAFiveMegabyteValueIsParkedReplayedAndDiscardedByteForByte() {
        roundTrip(fields(20_000, 5 * 1024 * 1024));
    }

    @Test
    void aReplayWithAPatchOf5000FieldsArrivesWhole() {
        String originId = big.add(Map.of("kind", "terminal", "payload", "small"));
        String dlqId = parkedAs(originId).id();
        StringBuilder body = new StringBuilder("{\"fields\":{\"kind\":\"ok\"");
        for (int i = 0; i < 5_000; i++) {
            body.append(",\"p").append(i).append("\":\"patched ").append(i).append('"');
        }
        body.append("}}");
        String newId = as("operator").contentType("application/json").body(body.toString())
                .post(big.dlqPath() + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(201).extract().path("id");

        Await.until("the patched job to complete", () -> handler.completions(big.jobId(newId)) == 1);
        Map<String, byte[]> seen = handler.attemptsOf(big.jobId(newId)).get(0).fields();
        assertEquals("small", text(seen.get("payload")));
        assertEquals("ok", text(seen.get("kind")));
        for (int i = 0; i < 5_000; i++) {
            assertEquals("patched " + i, text(seen.get("p" + i)), "patched field p" + i);
        }
        assertEquals(0, big.parkedCount(newId));
    }

    @Test
    void aJobThatCantBeParkedStaysPendingAndIsParkedOnceTheCauseIsGone() {
        redis.value(String.class).set(other.dlq(), "x"); // a string where the dead-letter stream belongs
        try {
            String stuck = other.add(Map.of("kind", "terminal", "payload", "stuck"));
            String fine = big.add(Map.of("kind", "terminal", "payload", "fine"));
            parkedAs(fine);
            Await.until("the refusal to be counted", () -> unparked(other.stream(), "wrong-type") >= 1);
            assertEquals(1, other.pending(), "the job that could not be parked is still pending");
            assertEquals("x", redis.value(String.class).get(other.dlq()), "nothing was written to the wrong key");

            redis.key().del(other.dlq());
            StreamMessage<String, String, byte[]> parked = Await.value("the stuck job to be parked",
                    () -> other.parked(stuck).orElse(null));
            assertEquals("stuck", text(parked.payload().get("f:payload")));
            Await.until("the PEL of " + other.stream() + " to drain", () -> other.pending() == 0);
        } finally {
            redis.key().del(other.dlq());
        }
    }

    @Test
    void aParkIsRefusedWholeWhileRedisIsOutOfMemoryAndDoneOnceThereIsRoom() {
        redis.execute("CONFIG", "SET", "maxmemory-policy", "noeviction");
        redis.execute("CONFIG", "SET", "maxmemory", "1");
        String id;
        try {
            // The job arrives once Redis is full (allow-oom lets only this one XADD through).
            id = redis.execute("EVAL", "#!lua flags=allow-oom\nreturn redis.call('XADD', KEYS[1], '*', 'kind', "
                    + "'terminal', 'payload', 'no room')", "1", other.stream()).toString();
            // dead-letter.lua's shebang makes Redis refuse the whole call up front: nothing is acked or
            // written past the memory limit.
            Await.until("the refusal to be counted", () -> unparked(other.stream(), "redis-error") >= 1);
            assertEquals(1, other.pending(), "still pending, not acked");
        } finally {
            redis.execute("CONFIG", "SET", "maxmemory", "0");
        }
        StreamMessage<String, String, byte[]> parked = Await.value("the job to be parked",
                () -> other.parked(id).orElse(null));
        assertEquals("no room", text(parked.payload().get("f:payload")));
    }

    @Test
    void aReplayOrDiscardThatCantWriteEveryKeyChangesNothing() {
        String originId = big.add(Map.of("kind", "terminal", "payload", "kept"));
        String dlqId = parkedAs(originId).id();
        String stats = RedisKeys.deadLetterStats(big.dlq());
        Map<String, String> counters = redis.hash(String.class).hgetall(stats);
        long audited = big.streams().commands().xlen(RedisKeys.audit(big.dlq()));
        long queued = big.streams().commands().xlen(big.stream());
        redis.key().del(stats);
        redis.value(String.class).set(stats, "not a hash");
        try {
            as("operator").delete(big.dlqPath() + "/entries/" + enc(dlqId) + "?reason=x").then().statusCode(409)
                    .body("type", org.hamcrest.Matchers.equalTo("/problems/wrong-key-type"));
            as("operator").post(big.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then().statusCode(409)
                    .body("type", org.hamcrest.Matchers.equalTo("/problems/wrong-key-type"));
            assertEquals(1, big.streams().commands().xrange(big.dlq(), StreamRange.of(dlqId, dlqId)).size(), "still parked");
            assertEquals(audited, big.streams().commands().xlen(RedisKeys.audit(big.dlq())), "nothing audited");
            assertEquals(queued, big.streams().commands().xlen(big.stream()), "nothing replayed");
        } finally {
            redis.key().del(stats);
            redis.hash(String.class).hset(stats, counters);
        }
        as("operator").delete(big.dlqPath() + "/entries/" + enc(dlqId) + "?reason=x").then().statusCode(200);
    }

    /** Parks the job, checks the record, replays it (it fails again), checks that, and discards it. */
    private void roundTrip(LinkedHashMap<String, byte[]> fields) {
        String originId = big.streams().commands().xadd(big.stream(), fields);
        Map<String, byte[]> written = fields;
        assertEquals(fields.size(), entry(big.stream(), originId).size());

        StreamMessage<String, String, byte[]> record = parkedAs(originId);
        assertEquals("packed", text(record.payload().get("snapshot")));
        assertEquals("0", text(record.payload().get("replays")));
        assertSameFields(written, PackedFields.decode(record.payload().get(RecordField.SNAPSHOT_PACKED.wireName())));
        assertSameFields(written, DeadLetterEntry.of(record.id(), record.payload()).snapshot());
        assertEquals(0, big.pending(), "parked, so acked");
        operatorSeesThePackedSnapshot(record.id(), written);

        String newId = as("operator").post(big.dlqPath() + "/entries/" + enc(record.id()) + "/replay")
                .then().statusCode(201).extract().path("id");
        Map<String, byte[]> replayed = entry(big.stream(), newId);
        assertEquals(List.of(ReservedField.PACKED.wireName(), ReservedField.REPLAY_OF.wireName(),
                ReservedField.REPLAYS.wireName()), new ArrayList<>(replayed.keySet()),
                "too many fields for one XADD from Lua: they travel packed");
        Await.until("the replayed job to run", () -> handler.attemptsOf(big.jobId(newId)).size() == 1);
        Map<String, byte[]> seen = new LinkedHashMap<>(handler.attemptsOf(big.jobId(newId)).get(0).fields());
        assertEquals(big.jobId(originId), text(seen.remove("idempotency-key")));
        assertEquals(big.dlq() + "/" + record.id(), text(seen.remove("replay-of")));
        assertEquals("1", text(seen.remove("redrive-replays")));
        assertSameFields(written, seen);

        StreamMessage<String, String, byte[]> again = parkedAs(newId);
        assertEquals("1", text(again.payload().get("replays")), "redrive's ledger knows it replayed this entry");
        Map<String, byte[]> snapshot = new LinkedHashMap<>(DeadLetterEntry.of(again.id(), again.payload()).snapshot());
        snapshot.remove("idempotency-key");
        snapshot.remove("replay-of");
        snapshot.remove("redrive-replays");
        assertSameFields(written, snapshot);

        String auditId = as("operator").delete(big.dlqPath() + "/entries/" + enc(again.id()) + "?reason=too%20big")
                .then().statusCode(200).extract().path("audit");
        assertTrue(big.streams().commands().xrange(big.dlq(), StreamRange.of(again.id(), again.id())).isEmpty(), "discarded");
        Map<String, byte[]> audit = entry(RedisKeys.audit(big.dlq()), auditId);
        assertEquals("discard", text(audit.get("action")));
        again.payload().forEach((name, value) -> assertArrayEquals(value, audit.get("record:" + name),
                "the audit record keeps record field " + name));
    }

    private StreamMessage<String, String, byte[]> parkedAs(String originId) {
        return Await.value("job " + originId + " to be parked", () -> {
            for (StreamMessage<String, String, byte[]> m : big.streams().commands().xrange(big.dlq(), StreamRange.of("-", "+"))) {
                if (originId.equals(text(m.payload().get("origin-id")))) {
                    return m;
                }
            }
            return null;
        });
    }

    private Map<String, byte[]> entry(String stream, String id) {
        List<StreamMessage<String, String, byte[]>> found = big.streams().commands().xrange(stream, StreamRange.of(id, id));
        assertEquals(1, found.size(), stream + " " + id);
        return found.get(0).payload();
    }

    /** A packed snapshot is seen through the API as any other: fields in the view, each one downloadable. */
    private void operatorSeesThePackedSnapshot(String dlqId, Map<String, byte[]> written) {
        String entry = big.dlqPath() + "/entries/" + enc(dlqId);
        io.restassured.path.json.JsonPath view = as("viewer").get(entry).then().statusCode(200).extract().jsonPath();
        assertEquals(Boolean.TRUE, view.get("snapshotPacked"));
        assertEquals("terminal", view.getString("fields.kind"), "the view shows the packed snapshot's fields");
        for (String name : List.of("kind", "k1", "k7", written.containsKey("big") ? "big" : "k4099")) {
            byte[] raw = as("viewer").get(entry + "/fields/" + name).then().statusCode(200).extract().asByteArray();
            assertArrayEquals(written.get(name), raw, "field " + name + " downloads byte for byte");
        }
        as("viewer").get(entry + "/fields/no-such-field").then().statusCode(404);
    }

    /** {@code kind=terminal} and n - 1 more fields; with {@code bigValue} > 0 one of them is that many random bytes. */
    private static LinkedHashMap<String, byte[]> fields(int n, int bigValue) {
        LinkedHashMap<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("kind", bytes("terminal"));
        Random random = new Random(n);
        for (int i = 1; i < n; i++) {
            if (i == n / 2 && bigValue > 0) {
                byte[] big = new byte[bigValue];
                random.nextBytes(big);
                fields.put("big", big);
            } else {
                fields.put("k" + i, bytes(i % 7 == 0 ? "" : "v" + i + ":" + (char) ('a' + i % 26)));
            }
        }
        return fields;
    }

    private static void assertSameFields(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        List<String> names = new ArrayList<>(actual.keySet());
        assertTrue(new ArrayList<>(expected.keySet()).equals(names), "the same " + expected.size()
                + " fields in order, got " + names.size() + " starting " + names.subList(0, Math.min(5, names.size())));
        expected.forEach((name, value) -> assertArrayEquals(value, actual.get(name), "field " + name));
    }

    private double unparked(String queue, String reason) {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        String metrics = given().port(port).get("/q/metrics").then().statusCode(200).extract().asString();
        String prefix = "redrive_jobs_unparked_total{queue=\"" + queue + "\",reason=\"" + reason + "\"} ";
        return metrics.lines().filter(l -> l.startsWith(prefix)).mapToDouble(l -> Double.parseDouble(l.substring(prefix.length())))
                .sum();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
