package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static dev.redrive.testing.Streams.text;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.restassured.response.ValidatableResponse;
import io.smallrye.common.annotation.Identifier;

/** The operator API on a real redis-server: who may do what, replay, discard, audit, and bad input. */
@QuarkusTest
@TestProfile(ApprovalProfile.class)
class DeadLetterApiTest {

    @Inject
    @Own("jobs")
    TestQueue jobs;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    /** Adds a job that fails terminally and waits until it is parked; returns its dead-letter id. */
    String parkedJob(Map<String, ?> fields) {
        Map<String, Object> all = new HashMap<>(fields);
        all.putIfAbsent("kind", "terminal");
        return jobs.awaitParked(jobs.add(all));
    }

    @Test
    void everyEndpointRefusesCallsWithoutCredentials() {
        String id = parkedJob(Map.of("payload", "a"));
        problem(given().urlEncodingEnabled(false).get("/dlq").then(), 401);
        problem(given().urlEncodingEnabled(false).get(jobs.dlqPath() + "/entries").then(), 401);
        problem(given().urlEncodingEnabled(false).get(jobs.dlqPath() + "/entries/" + enc(id)).then(), 401);
        problem(given().urlEncodingEnabled(false).get(jobs.dlqPath() + "/audit").then(), 401);
        problem(given().urlEncodingEnabled(false).post(jobs.dlqPath() + "/entries/" + enc(id) + "/replay").then(), 401);
        problem(given().urlEncodingEnabled(false).delete(jobs.dlqPath() + "/entries/" + enc(id) + "?reason=x").then(), 401);
        problem(given().urlEncodingEnabled(false).contentType("application/json").body("{}").post(jobs.dlqPath() + "/redrives").then(), 401);
        given().auth().preemptive().basic("operator", "wrong").get("/dlq").then().statusCode(401);
        assertTrue(jobs.parked(originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void viewerReadsButEveryWriteIsForbidden() {
        String id = parkedJob(Map.of("payload", "b"));
        as("viewer").get("/dlq").then().statusCode(200).body("name", hasItem(jobs.dlq()));
        as("viewer").get(jobs.dlqPath() + "/entries").then().statusCode(200);
        as("viewer").get(jobs.dlqPath() + "/entries/" + enc(id)).then().statusCode(200);
        as("viewer").get(jobs.dlqPath() + "/audit").then().statusCode(200);
        problem(as("viewer").post(jobs.dlqPath() + "/entries/" + enc(id) + "/replay").then(), 403);
        problem(as("viewer").delete(jobs.dlqPath() + "/entries/" + enc(id) + "?reason=x").then(), 403);
        problem(as("viewer").contentType("application/json").body("{\"dryRun\":true}")
                .post(jobs.dlqPath() + "/redrives").then(), 403);
        problem(as("viewer").delete(jobs.dlqPath() + "/redrives/" + enc("0c1d6b0e-6c57-4a3c-9b43-0d6f5c2a0f11")).then(), 403);
        assertTrue(jobs.parked(originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void automationMayNotReplayWhileSwitchedOff() {
        String id = parkedJob(Map.of("payload", "c"));
        as("automation").get(jobs.dlqPath() + "/entries/" + enc(id)).then().statusCode(200);
        problem(as("automation").post(jobs.dlqPath() + "/entries/" + enc(id) + "/replay").then(), 403);
        problem(as("automation").delete(jobs.dlqPath() + "/entries/" + enc(id) + "?reason=x").then(), 403);
        as("automation").post(jobs.dlqPath() + "/entries/" + enc(id) + "/replay").then()
                .body("type", equalTo("/problems/automation-disabled"));
        assertTrue(jobs.parked(originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void replayWithPatchDeliversExactlyThePatchedSnapshotOnce() {
        byte[] binary = { 0, 1, (byte) 0xC3, 0x28, (byte) 0xFF };
        String dlqId = parkedJob(Map.of("payload", "{\"doc\":1}", "keep", "same", "blob", binary));
        String originId = originOf(dlqId);
        as("operator").get(jobs.dlqPath() + "/entries/" + enc(dlqId)).then().statusCode(200)
                .body("originStream", equalTo(jobs.stream())).body("originId", equalTo(originId))
                .body("failure", equalTo("terminal")).body("fields.kind", equalTo("terminal"))
                .body("fields.blob.base64", equalTo(java.util.Base64.getEncoder().encodeToString(binary)))
                .body("fingerprint.size()", equalTo(12)).body("replays", equalTo(0));

        String newId = as("operator").contentType("application/json")
                .body("{\"fields\": {\"kind\": \"ok\", \"extra\": {\"base64\": \"AAH/\"}}, \"note\": \"fixed the schema\"}")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(201).body("stream", equalTo(jobs.stream())).body("replayOf", equalTo(jobs.dlq() + "/" + dlqId))
                .extract().path("id");

        String jobId = jobs.jobId(newId);
        Await.until("the replayed job to complete", () -> handler.completions(jobId) == 1);
        List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(jobId);
        assertEquals(1, attempts.size(), "handled exactly once");
        Map<String, byte[]> fields = attempts.get(0).fields();
        assertEquals("ok", text(fields.get("kind")));
        assertEquals("{\"doc\":1}", text(fields.get("payload")));
        assertEquals("same", text(fields.get("keep")));
        assertArrayEquals(binary, fields.get("blob"), "unpatched bytes travel untouched");
        assertArrayEquals(new byte[] { 0, 1, (byte) 0xFF }, fields.get("extra"));
        assertEquals(jobs.jobId(originId), attempts.get(0).idempotencyKey(), "the original key is carried forward");
        assertEquals(jobs.dlq() + "/" + dlqId, text(fields.get("replay-of")));
        assertEquals("1", text(fields.get("redrive-replays")));

        problem(as("operator").post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 404);
        problem(as("operator").get(jobs.dlqPath() + "/entries/" + enc(dlqId)).then(), 404);
        as("viewer").get(jobs.dlqPath() + "/audit").then().statusCode(200)
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
            String newId = as("operator").post(jobs.dlqPath() + "/entries/" + enc(current) + "/replay")
                    .then().statusCode(201).extract().path("id");
            String jobId = jobs.jobId(newId);
            current = Await.value("the replayed job to be parked again",
                    () -> jobs.parked(newId).map(StreamMessage::id).orElse(null));
            List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(jobId);
            assertEquals(1, attempts.size(), "a terminal job runs once per replay");
            assertEquals("same bytes", text(attempts.get(0).fields().get("payload")));
            assertEquals(jobs.jobId(originId), attempts.get(0).idempotencyKey());
            as("viewer").get(jobs.dlqPath() + "/entries/" + enc(current)).then().statusCode(200)
                    .body("replays", equalTo(replay)).body("repeatOffender", equalTo(replay >= 2));
        }
        String last = current;
        as("viewer").get(jobs.dlqPath() + "/entries?count=500").then().statusCode(200)
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
                        .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").statusCode();
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
        long copies = jobs.entries().stream()
                .filter(m -> (jobs.dlq() + "/" + dlqId).equals(text(m.payload().get("replay-of")))).count();
        assertEquals(1, copies, "exactly one new job");
    }

    @Test
    void retriedReplayWithTheSameIdempotencyKeyGetsTheFirstAnswer() {
        String dlqId = parkedJob(Map.of("payload", "idem"));
        String first = as("operator").header("Idempotency-Key", "k-" + dlqId).contentType("application/json")
                .body("{\"fields\":{\"kind\":\"ok\"}}").post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(201).extract().path("id");
        as("operator").header("Idempotency-Key", "k-" + dlqId).contentType("application/json")
                .body("{\"fields\":{\"kind\":\"ok\"}}").post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay")
                .then().statusCode(200).body("id", equalTo(first)).body("stream", equalTo(jobs.stream()));
        String other = parkedJob(Map.of("payload", "idem-2"));
        problem(as("operator").header("Idempotency-Key", "k-" + dlqId).post(jobs.dlqPath() + "/entries/" + enc(other) + "/replay")
                .then(), 422);
        assertTrue(jobs.parked(originOf(other)).isPresent(), "the other entry stays parked");
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
                            .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay");
                }));
            }
            answers.add(forKey);
        }
        go.countDown();
        for (int k = 0; k < keys; k++) {
            String replayOf = jobs.dlq() + "/" + dlqIds.get(k);
            List<Integer> statuses = new ArrayList<>();
            List<String> named = new ArrayList<>();
            for (Future<io.restassured.response.Response> f : answers.get(k)) {
                io.restassured.response.Response r = f.get();
                statuses.add(r.statusCode());
                named.add(r.statusCode() < 300 ? r.path("id") : r.asString());
            }
            List<String> copies = jobs.entries().stream()
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
        problem(as("operator").delete(jobs.dlqPath() + "/entries/" + enc(dlqId)).then(), 400);
        problem(as("operator").delete(jobs.dlqPath() + "/entries/" + enc(dlqId) + "?reason=%20%0A").then(), 400);
        // Kept without the white space around it, as the console's form keeps it (deadletter/Replays.reason).
        String auditId = as("operator").delete(jobs.dlqPath() + "/entries/" + enc(dlqId) + "?reason=%20duplicate%20of%2042%0A")
                .then().statusCode(200).extract().path("audit");
        assertTrue(jobs.parked(originId).isEmpty(), "discarded");
        StreamMessage<String, String, byte[]> audit = jobs.streams().all(jobs.dlq() + ":audit").stream()
                .filter(m -> m.id().equals(auditId)).findFirst().orElseThrow();
        assertEquals("discard", text(audit.payload().get("action")));
        assertEquals("operator", text(audit.payload().get("actor")));
        assertEquals("duplicate of 42", text(audit.payload().get("note")));
        assertEquals("{\"doc\":\"gone\"}", text(audit.payload().get("record:f:payload")));
        assertEquals(originId, text(audit.payload().get("record:origin-id")));
        assertEquals("terminal", text(audit.payload().get("record:failure")));
        problem(as("operator").delete(jobs.dlqPath() + "/entries/" + enc(dlqId) + "?reason=again").then(), 404);
        as("viewer").get(jobs.dlqPath() + "/audit?count=500").then().statusCode(200)
                .body("items.find { it.id == '" + auditId + "' }.fields['record:f:payload']", equalTo("{\"doc\":\"gone\"}"));
    }

    @Test
    void summaryCountersAgreeWithTheStreamAfterParksReplaysAndDiscards() {
        parkedJob(Map.of("payload", "s1"));
        String two = parkedJob(Map.of("payload", "s2"));
        String three = parkedJob(Map.of("payload", "s3"));
        as("operator").post(jobs.dlqPath() + "/entries/" + enc(two) + "/replay").then().statusCode(201);
        as("operator").delete(jobs.dlqPath() + "/entries/" + enc(three) + "?reason=test").then().statusCode(200);
        Await.until("no job pending", () -> jobs.pending() == 0);

        List<StreamMessage<String, String, byte[]>> all = jobs.deadLetters();
        Map<String, Integer> byFailure = new HashMap<>();
        Map<String, Integer> byFingerprint = new HashMap<>();
        all.forEach(m -> {
            byFailure.merge(text(m.payload().get("failure")), 1, Integer::sum);
            byFingerprint.merge(text(m.payload().get("fingerprint")), 1, Integer::sum);
        });
        ValidatableResponse r = as("viewer").get("/dlq").then().statusCode(200);
        r.body("find { it.name == '" + jobs.dlq() + "' }.depth", equalTo(all.size()));
        r.body("find { it.name == '" + jobs.dlq() + "' }.byOrigin.jobs", equalTo(all.size()));
        byFailure.forEach((kind, n) -> r.body("find { it.name == '" + jobs.dlq() + "' }.byFailure." + kind, equalTo(n)));
        byFingerprint.forEach((fp, n) -> r.body("find { it.name == '" + jobs.dlq() + "' }.byFingerprint.find { it.fingerprint == '"
                + fp + "' }.count", equalTo(n)));
        r.body("find { it.name == '" + jobs.dlq() + "' }.byFingerprint[0].text",
                containsString("input rejected: field ? missing"));
        // every entry here was parked in this run: within the last 24 hours of parks, which also counts those gone
        r.body("find { it.name == '" + jobs.dlq() + "' }.parkedPerHour.counts.size()", equalTo(24));
        r.body("find { it.name == '" + jobs.dlq() + "' }.parkedPerHour.counts.sum()", greaterThanOrEqualTo(all.size() + 2));
        r.body("find { it.name == '" + jobs.dlq() + "' }.byFingerprint.every { it.parkedPerHour.counts.sum() >= it.count }", equalTo(true));
        r.body("find { it.name == '" + jobs.dlq() + "' }.oldestDeadAt", equalTo(text(all.get(0).payload().get("dead-at"))));
        r.body("find { it.name == '" + jobs.dlq() + "' }.newestDeadAt",
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
                    .queryParam("failure", "terminal").queryParam("origin", jobs.stream())
                    .queryParams(after == null ? Map.of() : Map.of("after", after))
                    .get(jobs.dlqPath() + "/entries").then().statusCode(200).extract();
            seen.addAll(page.path("items.id"));
            after = page.path("next");
        } while (after != null);
        assertEquals(ids, seen, "oldest first, every entry once");
        List<String> newest = as("viewer").queryParam("count", 5).queryParam("job", "pager")
                .get(jobs.dlqPath() + "/entries").then().statusCode(200).extract().path("items.id");
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
        problem(as("operator").get(jobs.dlqPath() + "/entries/" + enc("not-an-id")).then(), 400);
        problem(as("operator").post(jobs.dlqPath() + "/entries/" + enc("12x") + "/replay").then(), 400);
        problem(as("operator").delete(jobs.dlqPath() + "/entries/" + enc("abc") + "?reason=x").then(), 400);
        problem(as("operator").get(jobs.dlqPath() + "/entries/" + enc("1-1")).then(), 404);
        problem(as("operator").post(jobs.dlqPath() + "/entries/" + enc("1-1") + "/replay").then(), 404);
        problem(as("operator").contentType("application/json").body("{not json")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("text/plain").body("hello")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json").body("[1,2]")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"fields\":{\"kind\":42}}")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"fields\":{\"kind\":{\"base64\":\"***\"}}}")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"colour\":\"red\"}")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 400);
        problem(as("operator").contentType("application/json")
                .body("{\"fields\":{\"payload\":\"" + "x".repeat(5000) + "\"}}")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 413);
        problem(as("operator").contentType("application/json").body("{\"fields\":{\"payload\":\"" + "x".repeat(20000) + "\"}}")
                .post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then(), 413);
        problem(as("viewer").get(jobs.dlqPath() + "/entries?failure=bogus").then(), 400);
        problem(as("viewer").get(jobs.dlqPath() + "/entries?order=sideways").then(), 400);
        problem(as("viewer").get(jobs.dlqPath() + "/entries?count=0").then(), 400);
        problem(as("viewer").get(jobs.dlqPath() + "/entries?count=abc").then(), 400);
        problem(as("viewer").get(jobs.dlqPath() + "/entries?after=zzz").then(), 400);
        problem(as("viewer").get(jobs.dlqPath() + "/entries?fingerprint=XYZ").then(), 400);
        problem(as("viewer").get(jobs.dlqPath() + "/entries?colour=red").then(), 400);
        problem(as("viewer").get(jobs.dlqPath() + "/audit?count=100000").then(), 400);
        problem(as("viewer").get("/dlq/nothing/here/at/all").then(), 404);
        assertTrue(jobs.parked(originId).isPresent(), "the entry is still parked");
        assertEquals(1, jobs.parkedCount(originId));
    }

    @Test
    void replayToAStreamNoQueueReadsIsRefused() {
        String forged = DeadLetterSeed.from("{jobs}elsewhere", "1-0").with(RecordField.FAILURE, "terminal")
                .with(RecordField.FINGERPRINT, "aaaaaaaaaaaa").snapshot("kind", "ok").park(jobs.redis(), jobs.dlq());
        problem(as("operator").post(jobs.dlqPath() + "/entries/" + enc(forged) + "/replay").then(), 422);
        assertEquals(1, jobs.deadLetters().stream().filter(m -> m.id().equals(forged)).count(), "still parked");
        as("operator").delete(jobs.dlqPath() + "/entries/" + enc(forged) + "?reason=forged%20by%20a%20test").then().statusCode(200);
    }

    @Test
    void metricsHealthAndOpenApiNeedNoCredentialsOnTheManagementPort() {
        String dlqId = parkedJob(Map.of("payload", "metric"));
        as("operator").post(jobs.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then().statusCode(201);
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        String metrics = given().port(port).get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("redrive_dlq_replayed_total{dlq=\"" + jobs.dlq() + "\"}"), "replayed counter");
        given().port(port).get("/q/health/live").then().statusCode(200);
        given().port(port).get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.keySet()", hasItem("/dlq/{dlq}/entries/{id}/replay"));
    }

    /**
     * The problem responses are declared once (ApiDocs, applied by ProblemResponses): every
     * operation of the operator API still declares its 401, 403 and 503 as problem+json, a read
     * its busy 503 with Retry-After, and every other 4xx a problem too.
     */
    @Test
    void everyOperationDeclaresItsProblemResponses() {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        Map<String, Map<String, Map<String, Object>>> paths = given().port(port).get("/q/openapi?format=json").then()
                .statusCode(200).extract().jsonPath().getMap("paths");
        List<String> missing = new ArrayList<>();
        int operations = 0;
        for (var path : paths.entrySet()) {
            if (!path.getKey().startsWith("/dlq")) {
                continue;
            }
            for (var operation : path.getValue().entrySet()) {
                operations++;
                String name = operation.getKey() + " " + path.getKey();
                @SuppressWarnings("unchecked")
                Map<String, Map<String, Object>> responses = (Map<String, Map<String, Object>>) operation.getValue()
                        .get("responses");
                for (String code : List.of("401", "403", "503")) {
                    if (!responses.containsKey(code)) {
                        missing.add(name + " declares no " + code);
                    }
                }
                responses.forEach((code, response) -> {
                    if (code.matches("[45]\\d\\d") && !String.valueOf(response.get("content")).contains("problem+json")) {
                        missing.add(name + ": " + code + " is no problem+json");
                    }
                });
                boolean read = name.startsWith("get /dlq/{dlq}/entries") || name.equals("get /dlq/{dlq}/audit");
                if (read != String.valueOf(responses.get("503").get("headers")).contains("Retry-After")) {
                    missing.add(name + ": 503 " + (read ? "without" : "with") + " the busy Retry-After header");
                }
            }
        }
        assertEquals(15, operations, "operations of the operator API");
        assertEquals(List.of(), missing);
    }

    String originOf(String dlqId) {
        return jobs.deadLetters().stream().filter(m -> m.id().equals(dlqId)).findFirst()
                .map(m -> text(m.payload().get("origin-id"))).orElseThrow();
    }
}
