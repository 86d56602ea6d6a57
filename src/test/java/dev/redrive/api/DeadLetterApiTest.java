package dev.redrive.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.RecordField;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.RedisResource;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestConfig;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import io.smallrye.common.annotation.Identifier;

/** The operator API on a real redis-server: who may do what, replay, discard, audit, and bad input. */
@QuarkusTest
@WithTestResource(RedisResource.class)
@TestProfile(DeadLetterApiTest.Profile.class)
class DeadLetterApiTest {

    static final String STREAM = "jobs";
    static final String DLQ = "{jobs}:dlq";
    static final String GROUP = "redrive";
    static final Duration BOUND = Duration.ofSeconds(20);

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return TestConfig.withApiUsers().queue("jobs").attempts(2).backoff("50ms").retryPoll("20ms").and()
                    .set("redrive.replay.repeat-offender-after", "2")
                    .set("redrive.replay.max-body-bytes", "4096")
                    .set("redrive.replay.automation-enabled", "false")
                    .set("redrive.consumer-name", "api-worker").build();
        }
    }

    @Inject
    RedisDataSource redis;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    Streams streams;

    @BeforeEach
    void setUp() {
        streams = new Streams(redis);
        streams.awaitGroup(STREAM, GROUP);
    }

    /** The dead-letter stream's path segment, encoded once here (its braces would read as a template). */
    static final String D = "/dlq/" + enc(DLQ);

    static String enc(String segment) {
        return java.net.URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, ApiUsers.password(user)).urlEncodingEnabled(false);
    }

    /** Adds a job that fails terminally and waits until it is parked; returns its dead-letter id. */
    String parkedJob(Map<String, ?> fields) {
        Map<String, Object> all = new HashMap<>(fields);
        all.putIfAbsent("kind", "terminal");
        String id = streams.add(STREAM, all);
        return Await.value("job " + id + " to be parked", BOUND, () -> streams.parked(DLQ, id).map(StreamMessage::id).orElse(null));
    }

    static void problem(ValidatableResponse r, int status) {
        r.statusCode(status).contentType(Problem.MEDIA_TYPE)
                .body("status", equalTo(status)).body("type", notNullValue()).body("title", notNullValue())
                .body("detail", notNullValue());
    }

    @Test
    void everyEndpointRefusesCallsWithoutCredentials() {
        String id = parkedJob(Map.of("payload", "a"));
        problem(given().urlEncodingEnabled(false).get("/dlq").then(), 401);
        problem(given().urlEncodingEnabled(false).get("/dlq/" + enc(DLQ) + "/entries").then(), 401);
        problem(given().urlEncodingEnabled(false).get("/dlq/" + enc(DLQ) + "/entries/" + enc(id)).then(), 401);
        problem(given().urlEncodingEnabled(false).get("/dlq/" + enc(DLQ) + "/audit").then(), 401);
        problem(given().urlEncodingEnabled(false).post("/dlq/" + enc(DLQ) + "/entries/" + enc(id) + "/replay").then(), 401);
        problem(given().urlEncodingEnabled(false).delete("/dlq/" + enc(DLQ) + "/entries/" + enc(id) + "?reason=x").then(), 401);
        problem(given().urlEncodingEnabled(false).contentType("application/json").body("{}").post("/dlq/" + enc(DLQ) + "/redrives").then(), 401);
        given().auth().preemptive().basic("operator", "wrong").get("/dlq").then().statusCode(401);
        assertTrue(streams.parked(DLQ, originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void viewerReadsButEveryWriteIsForbidden() {
        String id = parkedJob(Map.of("payload", "b"));
        as("viewer").get("/dlq").then().statusCode(200).body("name", hasItem(DLQ));
        as("viewer").get("/dlq/" + enc(DLQ) + "/entries").then().statusCode(200);
        as("viewer").get("/dlq/" + enc(DLQ) + "/entries/" + enc(id)).then().statusCode(200);
        as("viewer").get("/dlq/" + enc(DLQ) + "/audit").then().statusCode(200);
        problem(as("viewer").post("/dlq/" + enc(DLQ) + "/entries/" + enc(id) + "/replay").then(), 403);
        problem(as("viewer").delete("/dlq/" + enc(DLQ) + "/entries/" + enc(id) + "?reason=x").then(), 403);
        problem(as("viewer").contentType("application/json").body("{\"dryRun\":true}")
                .post("/dlq/" + enc(DLQ) + "/redrives").then(), 403);
        problem(as("viewer").delete("/dlq/" + enc(DLQ) + "/redrives/" + enc("0c1d6b0e-6c57-4a3c-9b43-0d6f5c2a0f11")).then(), 403);
        assertTrue(streams.parked(DLQ, originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void automationMayNotReplayWhileSwitchedOff() {
        String id = parkedJob(Map.of("payload", "c"));
        as("automation").get("/dlq/" + enc(DLQ) + "/entries/" + enc(id)).then().statusCode(200);
        problem(as("automation").post("/dlq/" + enc(DLQ) + "/entries/" + enc(id) + "/replay").then(), 403);
        problem(as("automation").delete("/dlq/" + enc(DLQ) + "/entries/" + enc(id) + "?reason=x").then(), 403);
        as("automation").post("/dlq/" + enc(DLQ) + "/entries/" + enc(id) + "/replay").then()
                .body("type", equalTo("/problems/automation-disabled"));
        assertTrue(streams.parked(DLQ, originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void replayWithPatchDeliversExactlyThePatchedSnapshotOnce() {
        byte[] binary = { 0, 1, (byte) 0xC3, 0x28, (byte) 0xFF };
        String dlqId = parkedJob(Map.of("payload", "{\"doc\":1}", "keep", "same", "blob", binary));
        String originId = originOf(dlqId);
        as("operator").get("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId)).then().statusCode(200)
                .body("originStream", equalTo(STREAM)).body("originId", equalTo(originId))
                .body("failure", equalTo("terminal")).body("fields.kind", equalTo("terminal"))
                .body("fields.blob.base64", equalTo(java.util.Base64.getEncoder().encodeToString(binary)))
                .body("fingerprint.size()", equalTo(12)).body("replays", equalTo(0));

        String newId = as("operator").contentType("application/json")
                .body("{\"fields\": {\"kind\": \"ok\", \"extra\": {\"base64\": \"AAH/\"}}, \"note\": \"fixed the schema\"}")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(201).body("stream", equalTo(STREAM)).body("replayOf", equalTo(DLQ + "/" + dlqId))
                .extract().path("id");

        String jobId = STREAM + "/" + newId;
        Await.until("the replayed job to complete", BOUND, () -> handler.completions(jobId) == 1);
        List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(jobId);
        assertEquals(1, attempts.size(), "handled exactly once");
        Map<String, byte[]> fields = attempts.get(0).fields();
        assertEquals("ok", text(fields.get("kind")));
        assertEquals("{\"doc\":1}", text(fields.get("payload")));
        assertEquals("same", text(fields.get("keep")));
        assertArrayEquals(binary, fields.get("blob"), "unpatched bytes travel untouched");
        assertArrayEquals(new byte[] { 0, 1, (byte) 0xFF }, fields.get("extra"));
        assertEquals(STREAM + "/" + originId, attempts.get(0).idempotencyKey(), "the original key is carried forward");
        assertEquals(DLQ + "/" + dlqId, text(fields.get("replay-of")));
        assertEquals("1", text(fields.get("redrive-replays")));

        problem(as("operator").post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 404);
        problem(as("operator").get("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId)).then(), 404);
        as("viewer").get("/dlq/" + enc(DLQ) + "/audit").then().statusCode(200)
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields.action", equalTo("replay"))
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields.actor", equalTo("operator"))
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields.note", equalTo("fixed the schema"))
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields.patched", equalTo("kind,extra"))
                .body("items.find { it.fields['dlq-id'] == '" + dlqId + "' }.fields['new-id']", equalTo(newId));
    }

    @Test
    void replayWithoutPatchSendsTheSameSnapshotAndCountsReplaysUntilARepeatOffender() {
        String first = parkedJob(Map.of("payload", "same bytes"));
        String originId = originOf(first);
        String current = first;
        for (int replay = 1; replay <= 2; replay++) {
            String newId = as("operator").post("/dlq/" + enc(DLQ) + "/entries/" + enc(current) + "/replay")
                    .then().statusCode(201).extract().path("id");
            String jobId = STREAM + "/" + newId;
            current = Await.value("the replayed job to be parked again", BOUND,
                    () -> streams.parked(DLQ, newId).map(StreamMessage::id).orElse(null));
            List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(jobId);
            assertEquals(1, attempts.size(), "a terminal job runs once per replay");
            assertEquals("same bytes", text(attempts.get(0).fields().get("payload")));
            assertEquals(STREAM + "/" + originId, attempts.get(0).idempotencyKey());
            as("viewer").get("/dlq/" + enc(DLQ) + "/entries/" + enc(current)).then().statusCode(200)
                    .body("replays", equalTo(replay)).body("repeatOffender", equalTo(replay >= 2));
        }
        String last = current;
        as("viewer").get("/dlq/" + enc(DLQ) + "/entries?count=500").then().statusCode(200)
                .body("items.find { it.id == '" + last + "' }.repeatOffender", equalTo(true))
                .body("items.find { it.id == '" + last + "' }.fields", equalTo(null));
    }

    @Test
    void eightConcurrentReplaysOfOneEntryMakeExactlyOneJob() throws Exception {
        String dlqId = parkedJob(Map.of("payload", "race", "kind", "terminal"));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            answers.add(pool.submit(() -> {
                go.await();
                return as("operator").contentType("application/json").body("{\"fields\":{\"kind\":\"ok\"}}")
                        .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").statusCode();
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
        long copies = streams.all(STREAM).stream()
                .filter(m -> (DLQ + "/" + dlqId).equals(text(m.payload().get("replay-of")))).count();
        assertEquals(1, copies, "exactly one new job");
    }

    @Test
    void retriedReplayWithTheSameIdempotencyKeyGetsTheFirstAnswer() {
        String dlqId = parkedJob(Map.of("payload", "idem"));
        String first = as("operator").header("Idempotency-Key", "k-" + dlqId).contentType("application/json")
                .body("{\"fields\":{\"kind\":\"ok\"}}").post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(201).extract().path("id");
        as("operator").header("Idempotency-Key", "k-" + dlqId).contentType("application/json")
                .body("{\"fields\":{\"kind\":\"ok\"}}").post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(200).body("id", equalTo(first)).body("stream", equalTo(STREAM));
        String other = parkedJob(Map.of("payload", "idem-2"));
        problem(as("operator").header("Idempotency-Key", "k-" + dlqId).post("/dlq/" + enc(DLQ) + "/entries/" + enc(other) + "/replay")
                .then(), 422);
        assertTrue(streams.parked(DLQ, originOf(other)).isPresent(), "the other entry stays parked");
    }

    @Test
    void concurrentReplaysWithOneIdempotencyKeyAllGetTheFirstAnswer() throws Exception {
        int keys = 20;
        int perKey = 10;
        List<String> dlqIds = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            dlqIds.add(parkedJob(Map.of("payload", "idem-race-" + k)));
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
                            .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay");
                }));
            }
            answers.add(forKey);
        }
        go.countDown();
        for (int k = 0; k < keys; k++) {
            String replayOf = DLQ + "/" + dlqIds.get(k);
            List<Integer> statuses = new ArrayList<>();
            List<String> named = new ArrayList<>();
            for (Future<io.restassured.response.Response> f : answers.get(k)) {
                io.restassured.response.Response r = f.get();
                statuses.add(r.statusCode());
                named.add(r.statusCode() < 300 ? r.path("id") : r.asString());
            }
            List<String> copies = streams.all(STREAM).stream()
                    .filter(m -> replayOf.equals(text(m.payload().get("replay-of")))).map(StreamMessage::id).toList();
            assertEquals(1, copies.size(), "exactly one new job for " + replayOf);
            assertEquals(1, statuses.stream().filter(s -> s == 201).count(), "one replay, statuses " + statuses);
            assertEquals(perKey - 1, statuses.stream().filter(s -> s == 200).count(), "the rest repeat it, statuses " + statuses);
            assertEquals(java.util.Collections.nCopies(perKey, copies.get(0)), named, "every answer names the new job");
        }
        pool.shutdown();
    }

    @Test
    void discardNeedsAReasonAndLeavesTheWholeRecordInTheAuditTrail() {
        String dlqId = parkedJob(Map.of("payload", "{\"doc\":\"gone\"}"));
        String originId = originOf(dlqId);
        problem(as("operator").delete("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId)).then(), 400);
        problem(as("operator").delete("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "?reason=%20%0A").then(), 400);
        // Kept without the white space around it, as the console's form keeps it (deadletter/Replays.reason).
        String auditId = as("operator").delete("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "?reason=%20duplicate%20of%2042%0A")
                .then().statusCode(200).extract().path("audit");
        assertTrue(streams.parked(DLQ, originId).isEmpty(), "discarded");
        StreamMessage<String, String, byte[]> audit = streams.all("{jobs}:dlq:audit").stream()
                .filter(m -> m.id().equals(auditId)).findFirst().orElseThrow();
        assertEquals("discard", text(audit.payload().get("action")));
        assertEquals("operator", text(audit.payload().get("actor")));
        assertEquals("duplicate of 42", text(audit.payload().get("note")));
        assertEquals("{\"doc\":\"gone\"}", text(audit.payload().get("record:f:payload")));
        assertEquals(originId, text(audit.payload().get("record:origin-id")));
        assertEquals("terminal", text(audit.payload().get("record:failure")));
        problem(as("operator").delete("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "?reason=again").then(), 404);
        as("viewer").get("/dlq/" + enc(DLQ) + "/audit?count=500").then().statusCode(200)
                .body("items.find { it.id == '" + auditId + "' }.fields['record:f:payload']", equalTo("{\"doc\":\"gone\"}"));
    }

    @Test
    void summaryCountersAgreeWithTheStreamAfterParksReplaysAndDiscards() {
        parkedJob(Map.of("payload", "s1"));
        String two = parkedJob(Map.of("payload", "s2"));
        String three = parkedJob(Map.of("payload", "s3"));
        as("operator").post("/dlq/" + enc(DLQ) + "/entries/" + enc(two) + "/replay").then().statusCode(201);
        as("operator").delete("/dlq/" + enc(DLQ) + "/entries/" + enc(three) + "?reason=test").then().statusCode(200);
        Await.until("no job pending", BOUND, () -> streams.pending(STREAM, GROUP) == 0);

        List<StreamMessage<String, String, byte[]>> all = streams.all(DLQ);
        Map<String, Integer> byFailure = new HashMap<>();
        Map<String, Integer> byFingerprint = new HashMap<>();
        all.forEach(m -> {
            byFailure.merge(text(m.payload().get("failure")), 1, Integer::sum);
            byFingerprint.merge(text(m.payload().get("fingerprint")), 1, Integer::sum);
        });
        ValidatableResponse r = as("viewer").get("/dlq").then().statusCode(200);
        r.body("find { it.name == '" + DLQ + "' }.depth", equalTo(all.size()));
        r.body("find { it.name == '" + DLQ + "' }.byOrigin.jobs", equalTo(all.size()));
        byFailure.forEach((kind, n) -> r.body("find { it.name == '" + DLQ + "' }.byFailure." + kind, equalTo(n)));
        byFingerprint.forEach((fp, n) -> r.body("find { it.name == '" + DLQ + "' }.byFingerprint.find { it.fingerprint == '"
                + fp + "' }.count", equalTo(n)));
        r.body("find { it.name == '" + DLQ + "' }.byFingerprint[0].text",
                containsString("input rejected: field ? missing"));
        // every entry here was parked in this run: within the last 24 hours of parks, which also counts those gone
        r.body("find { it.name == '" + DLQ + "' }.parkedPerHour.counts.size()", equalTo(24));
        r.body("find { it.name == '" + DLQ + "' }.parkedPerHour.counts.sum()", greaterThanOrEqualTo(all.size() + 2));
        r.body("find { it.name == '" + DLQ + "' }.byFingerprint.every { it.parkedPerHour.counts.sum() >= it.count }", equalTo(true));
        r.body("find { it.name == '" + DLQ + "' }.oldestDeadAt", equalTo(text(all.get(0).payload().get("dead-at"))));
        r.body("find { it.name == '" + DLQ + "' }.newestDeadAt",
                equalTo(text(all.get(all.size() - 1).payload().get("dead-at"))));
    }

    @Test
    void pagesWalkTheStreamBothWaysWithFiltersAndCursors() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(parkedJob(Map.of("payload", "p" + i, "job", "pager")));
        }
        List<String> seen = new ArrayList<>();
        String after = null;
        do {
            var page = as("viewer").queryParam("count", 2).queryParam("order", "oldest").queryParam("job", "pager")
                    .queryParam("failure", "terminal").queryParam("origin", STREAM)
                    .queryParams(after == null ? Map.of() : Map.of("after", after))
                    .get("/dlq/" + enc(DLQ) + "/entries").then().statusCode(200).extract();
            seen.addAll(page.path("items.id"));
            after = page.path("next");
        } while (after != null);
        assertEquals(ids, seen, "oldest first, every entry once");
        List<String> newest = as("viewer").queryParam("count", 5).queryParam("job", "pager")
                .get("/dlq/" + enc(DLQ) + "/entries").then().statusCode(200).extract().path("items.id");
        List<String> reversed = new ArrayList<>(ids);
        java.util.Collections.reverse(reversed);
        assertEquals(reversed, newest);
    }

    @Test
    void badInputAnswersAProblemAndChangesNothing() {
        String dlqId = parkedJob(Map.of("payload", "bad input"));
        String originId = originOf(dlqId);
        problem(as("operator").get("/dlq/" + enc("nope") + "/entries").then(), 404);
        problem(as("operator").get("/dlq/" + enc("nope") + "/entries/" + enc(dlqId)).then(), 404);
        problem(as("operator").post("/dlq/" + enc("nope") + "/entries/" + enc(dlqId) + "/replay").then(), 404);
        problem(as("operator").get("/dlq/" + enc(DLQ) + "/entries/" + enc("not-an-id")).then(), 400);
        problem(as("operator").post("/dlq/" + enc(DLQ) + "/entries/" + enc("12x") + "/replay").then(), 400);
        problem(as("operator").delete("/dlq/" + enc(DLQ) + "/entries/" + enc("abc") + "?reason=x").then(), 400);
        problem(as("operator").get("/dlq/" + enc(DLQ) + "/entries/" + enc("1-1")).then(), 404);
        problem(as("operator").post("/dlq/" + enc(DLQ) + "/entries/" + enc("1-1") + "/replay").then(), 404);
        problem(as("operator").contentType("application/json").body("{not json")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("text/plain").body("hello")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json").body("[1,2]")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"fields\":{\"kind\":42}}")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"fields\":{\"kind\":{\"base64\":\"***\"}}}")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"colour\":\"red\"}")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json")
                .body("{\"fields\":{\"payload\":\"" + "x".repeat(5000) + "\"}}")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 413);
        problem(as("operator").contentType("application/json").body("{\"fields\":{\"payload\":\"" + "x".repeat(20000) + "\"}}")
                .post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then(), 413);
        problem(as("viewer").get("/dlq/" + enc(DLQ) + "/entries?failure=bogus").then(), 400);
        problem(as("viewer").get("/dlq/" + enc(DLQ) + "/entries?order=sideways").then(), 400);
        problem(as("viewer").get("/dlq/" + enc(DLQ) + "/entries?count=0").then(), 400);
        problem(as("viewer").get("/dlq/" + enc(DLQ) + "/entries?count=abc").then(), 400);
        problem(as("viewer").get("/dlq/" + enc(DLQ) + "/entries?after=zzz").then(), 400);
        problem(as("viewer").get("/dlq/" + enc(DLQ) + "/entries?fingerprint=XYZ").then(), 400);
        problem(as("viewer").get("/dlq/" + enc(DLQ) + "/entries?colour=red").then(), 400);
        problem(as("viewer").get("/dlq/" + enc(DLQ) + "/audit?count=100000").then(), 400);
        problem(as("viewer").get("/dlq/nothing/here/at/all").then(), 404);
        assertTrue(streams.parked(DLQ, originId).isPresent(), "the entry is still parked");
        assertEquals(1, streams.parkedCount(DLQ, originId));
    }

    @Test
    void replayToAStreamNoQueueReadsIsRefused() {
        String forged = DeadLetterSeed.from("{jobs}elsewhere", "1-0").with(RecordField.FAILURE, "terminal")
                .with(RecordField.FINGERPRINT, "aaaaaaaaaaaa").snapshot("kind", "ok").park(streams.redis(), DLQ);
        problem(as("operator").post("/dlq/" + enc(DLQ) + "/entries/" + enc(forged) + "/replay").then(), 422);
        assertEquals(1, streams.all(DLQ).stream().filter(m -> m.id().equals(forged)).count(), "still parked");
        as("operator").delete("/dlq/" + enc(DLQ) + "/entries/" + enc(forged) + "?reason=forged%20by%20a%20test").then().statusCode(200);
    }

    @Test
    void metricsHealthAndOpenApiNeedNoCredentialsOnTheManagementPort() {
        String dlqId = parkedJob(Map.of("payload", "metric"));
        as("operator").post("/dlq/" + enc(DLQ) + "/entries/" + enc(dlqId) + "/replay").then().statusCode(201);
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        String metrics = given().port(port).get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("redrive_dlq_replayed_total{dlq=\"" + DLQ + "\"}"), "replayed counter");
        given().port(port).get("/q/health/live").then().statusCode(200);
        given().port(port).get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.keySet()", hasItem("/dlq/{dlq}/entries/{id}/replay"));
    }

    static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    String originOf(String dlqId) {
        return streams.all(DLQ).stream().filter(m -> m.id().equals(dlqId)).findFirst()
                .map(m -> text(m.payload().get("origin-id"))).orElseThrow();
    }
}
