package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.problem;
import static dev.redrive.testing.Streams.text;
import static dev.redrive.testing.PatchSeed.INPUT;
import static dev.redrive.testing.PatchSeed.PATCH;
import static dev.redrive.testing.PatchSeed.PATCHED_INPUT;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.RecordField;
import dev.redrive.redrive.RedriveRunner;
import dev.redrive.redrive.RunnerLifecycle;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.PatchSeed;
import dev.redrive.testing.Redrives;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * A patch on a bulk redrive (lib/patch.lua), on a real redis-server: every moved entry has exactly
 * the patched fields changed and every other byte as parked (a JSON field's untouched numbers and
 * escapes included); an entry the patch can't apply to stays parked with its reason; a runner
 * stopped mid-way and taken over neither patches twice nor moves an entry unpatched; a dry run
 * previews the patch; a proposal keeps it for its approver; a patch that could widen or mean
 * something else is a 400.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class PatchedRedriveTest {

    static final String ORIGIN = "{patch}ai";

    @Inject
    @Own("patch")
    TestQueue queue;

    @Inject
    RedriveRunner runner;

    Redrives redrives;

    @BeforeEach
    void redrivesOfThisQueue() {
        redrives = new Redrives(queue);
    }

    List<String> park(String job, int n) {
        return PatchSeed.park(queue, ORIGIN, job, n);
    }

    /** What a moved job must hold: the patched fields, every other field as parked, redrive's own after them. */
    static Map<String, String> expected(int n) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("n", Integer.toString(n));
        fields.put("model", "gpt-new");
        fields.put("input", PATCHED_INPUT);
        fields.put("tail", "t" + n);
        fields.put("added", "yes");
        return fields;
    }

    /** The jobs redriven to ORIGIN by this job name, by their n, each checked field by field. */
    void assertPatched(String job, int n, Set<String> skippedIds, List<String> parked) {
        Set<String> seen = new HashSet<>();
        for (StreamMessage<String, String, byte[]> m : queue.streams().all(ORIGIN)) {
            Map<String, String> fields = new LinkedHashMap<>();
            m.payload().forEach((name, value) -> fields.put(name, text(value)));
            String replayOf = fields.remove("replay-of");
            if (!parked.contains(replayOf.substring(replayOf.indexOf('/') + 1))) {
                continue; // another test's job
            }
            assertTrue(seen.add(replayOf), "moved once: " + replayOf);
            fields.remove("redrive-replays");
            fields.remove("redrive-task");
            fields.remove("idempotency-key");
            int i = Integer.parseInt(fields.get("n"));
            assertEquals(expected(i), fields, "job " + i);
        }
        assertEquals(n - skippedIds.size(), seen.size(), "moved");
    }

    /** Of PatchSeed's 1000 jobs, 20 have an input that is not JSON and 20 none: 960 move. */
    static void assertMovedAndSkipped(JsonPath done) {
        assertEquals(960, done.getLong("moved"));
        assertEquals(40, done.getLong("skipped"), "20 inputs not JSON, 20 without an input");
    }

    @Test
    void everyMovedEntryHasExactlyThePatchedFieldsChangedAndTheRestAsParked() {
        List<String> parked = park("all", 1000);
        JsonPath done = redrives.completed("{\"filter\": {\"job\": \"all\"}, \"maxPerSecond\": 0, \"patch\": " + PATCH + "}");

        assertEquals(1000, done.getLong("matched"));
        assertMovedAndSkipped(done);
        List<Map<String, String>> skipped = done.getList("skippedEntries");
        assertEquals(40, skipped.size());
        Set<String> skippedIds = new HashSet<>();
        for (Map<String, String> s : skipped) {
            int i = parked.indexOf(s.get("id")) + 1;
            assertEquals(i % 50 == 0 ? "patch: field 'input' is not a JSON object" : "patch: field 'input' is missing",
                    s.get("reason"), "entry " + i);
            skippedIds.add(s.get("id"));
        }
        assertEquals(new HashSet<>(redrives.listed("job=all")), skippedIds, "the skipped stay parked, no other");
        assertPatched("all", 1000, skippedIds, parked);
        assertEquals("gpt-new", done.getString("patch.set.model"), "the task shows its patch");

        // The original of every patched field is in the trail, found from the new entry's replay-of.
        List<StreamMessage<String, String, byte[]>> patches = queue.streams().all(queue.dlq() + ":audit").stream()
                .filter(m -> "redrive-patch".equals(text(m.payload().get("action"))))
                .filter(m -> done.getString("id").equals(text(m.payload().get("task")))).toList();
        assertEquals(960, patches.size());
        StreamMessage<String, String, byte[]> first = patches.get(0);
        assertEquals(parked.get(1), text(first.payload().get("dlq-id")));
        assertEquals("model,added,legacy,input", text(first.payload().get("patched")));
        assertEquals("gpt-old", text(first.payload().get("record:f:model")));
        assertEquals("x", text(first.payload().get("record:f:legacy")));
        assertEquals(INPUT, text(first.payload().get("record:f:input")));
        assertNull(first.payload().get("record:f:added"), "a field the job did not have has no original");
        redrives.movesAudited(done.getString("id"))
                .forEach(m -> assertEquals("model,added,legacy,input", text(m.payload().get("patched"))));
    }

    @Test
    void aRunnerStoppedMidWayAndTakenOverPatchesEachEntryOnce() {
        List<String> parked = park("resume", 1000);
        String task = redrives.start("{\"filter\": {\"job\": \"resume\"}, \"maxPerSecond\": 400, \"patch\": " + PATCH + "}");
        Await.until("some entries to move", () -> redrives.status(task).getLong("moved") >= 100);
        RunnerLifecycle.shutDown(runner);
        Await.until("the runner to stop", () -> !RunnerLifecycle.runsHere(runner, queue.dlq(), task));
        long before = redrives.status(task).getLong("moved");
        assertTrue(before < 960, "stopped mid-way at " + before);
        RunnerLifecycle.takeOverAbandoned(runner);
        assertMovedAndSkipped(redrives.awaitState(task, "completed"));
        JsonPath done = redrives.status(task);
        Set<String> skippedIds = new HashSet<>(done.getList("skippedEntries.id", String.class));
        assertPatched("resume", 1000, skippedIds, parked);
    }

    @Test
    void theOriginalOfAMaskedFieldStaysMaskedInTheAuditTrail() {
        String id = DeadLetterSeed.from(ORIGIN, "1-0").with(RecordField.JOB, "masked").snapshot("token", "s3cret")
                .snapshot("order", "8").park(queue.redis(), queue.dlq());
        redrives.completed("{\"filter\": {\"job\": \"masked\"}, \"maxPerSecond\": 0, \"patch\": "
                + "{\"set\": {\"token\": \"rotated\", \"order\": \"9\"}}}");
        String patched = "items.find { it.fields.action == 'redrive-patch' && it.fields['dlq-id'] == '" + id + "' }.fields";
        for (String user : List.of("viewer", "operator")) {
            as(user).get(queue.dlqPath() + "/audit?count=100").then().statusCode(200)
                    .body(patched + "['record:f:token']", startsWith("(masked"))
                    .body(patched + "['record:f:order']", equalTo("8"));
        }
    }

    @Test
    void aDryRunPreviewsThePatchOnItsFirstEntriesAndMovesNothing() {
        List<String> parked = park("dry", 60);
        JsonPath dry = redrives.completed("{\"filter\": {\"job\": \"dry\"}, \"dryRun\": true, \"patch\": " + PATCH + "}");
        assertEquals(60, dry.getLong("matched"));
        assertEquals(0, dry.getLong("moved"));
        assertEquals(60, redrives.listed("job=dry").size());
        List<Map<String, Object>> preview = dry.getList("preview");
        assertEquals(5, preview.size());
        assertEquals(parked.get(0), preview.get(0).get("id"));
        assertEquals("patch: field 'input' is missing", preview.get(0).get("skipped"), "the first has no input");
        assertEquals(parked.get(1), preview.get(1).get("id"));
        assertNull(preview.get(1).get("skipped"));
        assertEquals(List.of(
                Map.of("field", "model", "before", "gpt-old", "after", "gpt-new", "truncated", false),
                change("added", null, "yes"), change("legacy", "x", null),
                Map.of("field", "input", "before", INPUT, "after", PATCHED_INPUT, "truncated", false)),
                preview.get(1).get("changes"));
    }

    private static Map<String, Object> change(String field, Object before, Object after) {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("field", field);
        change.put("before", before);
        change.put("after", after);
        change.put("truncated", false);
        return change;
    }

    @Test
    void aProposalKeepsItsPatchShowsItsPreviewAndItsApprovalWritesIt() {
        List<String> parked = park("proposed", 10);
        String id = as("operator").contentType("application/json")
                .body("{\"filter\": {\"job\": \"proposed\"}, \"maxPerSecond\": 0, \"patch\": " + PATCH + "}")
                .post(queue.dlqPath() + "/proposals").then().statusCode(201).extract().path("id");
        JsonPath proposal = as("viewer").get(queue.dlqPath() + "/proposals/" + id).then().statusCode(200).extract()
                .jsonPath();
        assertEquals("gpt-new", proposal.getString("patch.set.model"));
        assertEquals(List.of("legacy"), proposal.getList("patch.remove"));
        as("viewer").get(queue.dlqPath() + "/proposals/" + id).then().body(containsString(
                "\"json\":{\"input\":{\"model\":\"new\",\"nested\":{\"drop\":null,\"add\":{\"deep\":1}},\"extra\":[1]}}"));
        assertEquals(5, proposal.getList("preview").size());

        String task = as("approver").contentType("application/json").post(queue.dlqPath() + "/proposals/" + id + "/approve")
                .then().statusCode(202).extract().path("task");
        JsonPath done = redrives.awaitState(task, "completed");
        assertEquals(9, done.getLong("moved"), "the first of the ten has no input");
        assertPatched("proposed", 10, Set.of(parked.get(0)), parked);
    }

    @Test
    void aPatchThatCouldMeanSomethingElseIsRefused() {
        for (String patch : List.of("{}", "null", "[]", "{\"set\": {}}", "{\"sett\": {\"a\": \"b\"}}",
                "{\"set\": {\"replay-of\": \"x\"}}", "{\"set\": {\"a\": \"b\"}, \"remove\": [\"a\"]}",
                "{\"remove\": [\"a\", \"a\"]}", "{\"json\": {\"input\": \"text\"}}", "{\"json\": {\"input\": null}}",
                "{\"set\": {\"a\": 1}}", "{\"set\": {\"\": \"b\"}}", "{\"remove\": \"a\"}")) {
            problem(as("operator").contentType("application/json")
                    .body("{\"filter\": {\"job\": \"none\"}, \"dryRun\": true, \"patch\": " + patch + "}")
                    .post(queue.dlqPath() + "/redrives").then(), 400);
        }
        as("operator").contentType("application/json")
                .body("{\"filter\": {\"job\": \"none\"}, \"dryRun\": true, \"patch\": {\"set\": {\"redrive-task\": \"x\"}}}")
                .post(queue.dlqPath() + "/redrives").then().statusCode(400).body("detail", containsString("redrive-task"));
    }
}
