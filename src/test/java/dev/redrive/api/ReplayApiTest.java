package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static dev.redrive.testing.Streams.text;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.RecordField;
import dev.redrive.testing.ApprovalProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/**
 * Replaying one dead letter through the API, on a real redis-server: with or without a patch,
 * exactly once however many ask at a time, an Idempotency-Key answered alike, and never to a
 * stream no queue reads.
 */
@QuarkusTest
@TestProfile(ApprovalProfile.class)
class ReplayApiTest {

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @Inject
    @Own("replay")
    TestQueue replay;

    @Test
    void replayWithPatchDeliversExactlyThePatchedSnapshotOnce() {
        byte[] binary = { 0, 1, (byte) 0xC3, 0x28, (byte) 0xFF };
        String dlqId = replay.parkedJob(Map.of("payload", "{\"doc\":1}", "keep", "same", "blob", binary));
        String originId = replay.originOf(dlqId);
        as("operator").get(replay.dlqPath() + "/entries/" + enc(dlqId)).then().statusCode(200)
                .body("originStream", equalTo(replay.stream())).body("originId", equalTo(originId))
                .body("failure", equalTo("terminal")).body("fields.kind", equalTo("terminal"))
                .body("fields.blob.base64", equalTo(java.util.Base64.getEncoder().encodeToString(binary)))
                .body("fingerprint.size()", equalTo(12)).body("replays", equalTo(0));

        String newId = as("operator").contentType("application/json")
                .body("{\"fields\": {\"kind\": \"ok\", \"extra\": {\"base64\": \"AAH/\"}}, \"note\": \"fixed the schema\"}")
                .post(replay.dlqPath() + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(201).body("stream", equalTo(replay.stream())).body("replayOf", equalTo(replay.dlq() + "/" + dlqId))
                .extract().path("id");

        String jobId = replay.jobId(newId);
        Await.until("the replayed job to complete", () -> handler.completions(jobId) == 1);
        List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(jobId);
        assertEquals(1, attempts.size(), "handled exactly once");
        Map<String, byte[]> fields = attempts.get(0).fields();
        assertEquals("ok", text(fields.get("kind")));
        assertEquals("{\"doc\":1}", text(fields.get("payload")));
        assertEquals("same", text(fields.get("keep")));
        assertArrayEquals(binary, fields.get("blob"), "unpatched bytes travel untouched");
        assertArrayEquals(new byte[] { 0, 1, (byte) 0xFF }, fields.get("extra"));
        assertEquals(replay.jobId(originId), attempts.get(0).idempotencyKey(), "the original key is carried forward");
        assertEquals(replay.dlq() + "/" + dlqId, text(fields.get("replay-of")));
        assertEquals("1", text(fields.get("redrive-replays")));

        problem(as("operator").post(replay.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 404);
        problem(as("operator").get(replay.dlqPath() + "/entries/" + enc(dlqId)).then(), 404);
        as("viewer").get(replay.dlqPath() + "/audit").then().statusCode(200)
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields.action", equalTo("replay"))
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields.actor", equalTo("operator"))
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields.note", equalTo("fixed the schema"))
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields.patched", equalTo("kind,extra"))
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields['new-id']", equalTo(newId));
    }

    @Test
    void replayWithoutPatchSendsTheSameSnapshotAndCountsReplaysUntilARepeatOffender() {
        String first = replay.parkedJob(Map.of("payload", "same bytes"));
        String originId = replay.originOf(first);
        String current = first;
        for (int round = 1; round <= 2; round++) {
            String newId = as("operator").post(replay.dlqPath() + "/entries/" + enc(current) + "/replay")
                    .then().statusCode(201).extract().path("id");
            String jobId = replay.jobId(newId);
            current = Await.value("the replayed job to be parked again",
                    () -> replay.parked(newId).map(StreamMessage::id).orElse(null));
            List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(jobId);
            assertEquals(1, attempts.size(), "a terminal job runs once per replay");
            assertEquals("same bytes", text(attempts.get(0).fields().get("payload")));
            assertEquals(replay.jobId(originId), attempts.get(0).idempotencyKey());
            as("viewer").get(replay.dlqPath() + "/entries/" + enc(current)).then().statusCode(200)
                    .body("replays", equalTo(round)).body("repeatOffender", equalTo(round >= 2));
        }
        String last = current;
        as("viewer").get(replay.dlqPath() + "/entries?count=500").then().statusCode(200)
                .body("items.find { it.id == '" + last + "' }.repeatOffender", equalTo(true))
                .body("items.find { it.id == '" + last + "' }.fields", equalTo(null));
    }

    @Test
    void eightConcurrentReplaysOfOneEntryMakeExactlyOneJob() throws Exception {
        String dlqId = replay.parkedJob(Map.of("payload", "race", "kind", "terminal"));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            answers.add(pool.submit(() -> {
                go.await();
                return as("operator").contentType("application/json").body("{\"fields\":{\"kind\":\"ok\"}}")
                        .post(replay.dlqPath() + "/entries/" + enc(dlqId) + "/replay").statusCode();
            }));
        }
        go.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<Integer> f : answers) {
            statuses.add(f.get());
        }
        pool.shutdown();
        assertEquals(1, statuses.stream().filter(s -> s == 201).count(), "statuses " + statuses);
        assertEquals(7, statuses.stream().filter(s -> s == 404 || s == 409).count(), "statuses " + statuses);
        long copies = replay.entries().stream()
                .filter(m -> (replay.dlq() + "/" + dlqId).equals(text(m.payload().get("replay-of")))).count();
        assertEquals(1, copies, "exactly one new job");
    }

    @Test
    void retriedReplayWithTheSameIdempotencyKeyGetsTheFirstAnswer() {
        String dlqId = replay.parkedJob(Map.of("payload", "idem"));
        String first = as("operator").header("Idempotency-Key", "k-" + dlqId).contentType("application/json")
                .body("{\"fields\":{\"kind\":\"ok\"}}").post(replay.dlqPath() + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(201).extract().path("id");
        as("operator").header("Idempotency-Key", "k-" + dlqId).contentType("application/json")
                .body("{\"fields\":{\"kind\":\"ok\"}}").post(replay.dlqPath() + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(200).body("id", equalTo(first)).body("stream", equalTo(replay.stream()));
        String other = replay.parkedJob(Map.of("payload", "idem-2"));
        problem(as("operator").header("Idempotency-Key", "k-" + dlqId).post(replay.dlqPath() + "/entries/" + enc(other) + "/replay")
                .then(), 422);
        assertTrue(replay.parked(replay.originOf(other)).isPresent(), "the other entry stays parked");
    }

    @Test
    void concurrentReplaysWithOneIdempotencyKeyAllGetTheFirstAnswer() throws Exception {
        int keys = 20;
        int perKey = 10;
        List<String> dlqIds = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            dlqIds.add(replay.parkedJob(Map.of("payload", "idem-race-" + k)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(keys);
        CountDownLatch go = new CountDownLatch(1);
        List<List<Future<io.restassured.response.Response>>> answers = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            String dlqId = dlqIds.get(k);
            List<Future<io.restassured.response.Response>> forKey = new ArrayList<>();
            for (int i = 0; i < perKey; i++) {
                forKey.add(pool.submit(() -> {
                    go.await();
                    return as("operator").header("Idempotency-Key", "race-" + dlqId).contentType("application/json")
                            .body("{\"fields\":{\"kind\":\"ok\"}}")
                            .post(replay.dlqPath() + "/entries/" + enc(dlqId) + "/replay");
                }));
            }
            answers.add(forKey);
        }
        go.countDown();
        for (int k = 0; k < keys; k++) {
            String replayOf = replay.dlq() + "/" + dlqIds.get(k);
            List<Integer> statuses = new ArrayList<>();
            List<String> named = new ArrayList<>();
            for (Future<io.restassured.response.Response> f : answers.get(k)) {
                io.restassured.response.Response r = f.get();
                statuses.add(r.statusCode());
                named.add(r.statusCode() < 300 ? r.path("id") : r.asString());
            }
            List<String> copies = replay.entries().stream()
                    .filter(m -> replayOf.equals(text(m.payload().get("replay-of")))).map(StreamMessage::id).toList();
            assertEquals(1, copies.size(), "exactly one new job for " + replayOf);
            assertEquals(1, statuses.stream().filter(s -> s == 201).count(), "one replay, statuses " + statuses);
            assertEquals(perKey - 1, statuses.stream().filter(s -> s == 200).count(), "the rest repeat it, statuses " + statuses);
            assertEquals(java.util.Collections.nCopies(perKey, copies.get(0)), named, "every answer names the new job");
        }
        pool.shutdown();
    }

    @Test
    void replayToAStreamNoQueueReadsIsRefused() {
        String forged = DeadLetterSeed.from("{replay}elsewhere", "1-0").with(RecordField.FAILURE, "terminal")
                .with(RecordField.FINGERPRINT, "aaaaaaaaaaaa").snapshot("kind", "ok").park(replay.redis(), replay.dlq());
        problem(as("operator").post(replay.dlqPath() + "/entries/" + enc(forged) + "/replay").then(), 422);
        assertEquals(1, replay.deadLetters().stream().filter(m -> m.id().equals(forged)).count(), "still parked");
        as("operator").delete(replay.dlqPath() + "/entries/" + enc(forged) + "?reason=forged%20by%20a%20test").then().statusCode(200);
    }
}
