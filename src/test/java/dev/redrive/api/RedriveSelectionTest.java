package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static dev.redrive.testing.Streams.text;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.Redrives;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * What a bulk redrive takes, on a real redis-server: the entries a listing with the same filter
 * shows, never a record that can't be sent back (skipped, with the reason, and the task still
 * ends), never for automation; a request it can't read is a problem.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class RedriveSelectionTest {

    @Inject
    @Own("pick")
    TestQueue pick;

    Redrives redrives;

    @BeforeEach
    void redrivesOfThisQueue() {
        redrives = new Redrives(pick);
    }

    @Test
    void listingsDryRunsAndRedrivesPickTheSameEntries() {
        String before = redrives.park("{pick}pick", "pick", "exhausted", "cccccccccccc", "2026-01-01T00:00:00Z");
        String from = redrives.park("{pick}pick", "pick", "terminal", "cccccccccccc", "2026-01-01T00:00:00.500Z");
        String micro = redrives.park("{pick}pick", "pick", "exhausted", "dddddddddddd", "2026-01-01T00:00:01.000001Z");
        String elsewhere = redrives.park("{pick}elsewhere", "pick", "exhausted", "cccccccccccc", "2026-01-01T00:00:01.999999999Z");
        String to = redrives.park("{pick}pick", "pick", "exhausted", "cccccccccccc", "2026-01-01T00:00:02Z");
        String garbled = redrives.park("{pick}pick", "pick", "exhausted", "cccccccccccc", "not a time");
        String trimmed = redrives.park("{pick}pick", "pick", "missing", "cccccccccccc", "2026-01-01T00:00:01Z");
        String otherJob = redrives.park("{pick}pick", "pick-other", "exhausted", "cccccccccccc", "2026-01-01T00:00:01Z");

        assertEquals(List.of(before, from, micro, elsewhere, to, garbled, trimmed), redrives.listed("job=pick"));
        assertEquals(List.of(elsewhere), redrives.listed("job=pick&origin=" + enc("{pick}elsewhere")));
        assertEquals(List.of(from), redrives.listed("job=pick&failure=terminal"));
        assertEquals(List.of(micro), redrives.listed("fingerprint=dddddddddddd"));
        assertEquals(List.of(otherJob), redrives.listed("job=pick-other&failure=exhausted&fingerprint=cccccccccccc"));

        long all = pick.redis().stream(String.class).xlen(pick.dlq());
        assertEquals(all, redrives.dryRunMatches("{}"), "an empty filter counts the stream without reading it");
        assertEquals(7, redrives.dryRunMatches("{\"job\": \"pick\"}"));
        assertEquals(1, redrives.dryRunMatches("{\"job\": \"pick\", \"origin\": \"{pick}elsewhere\"}"));
        assertEquals(1, redrives.dryRunMatches("{\"job\": \"pick\", \"failure\": \"terminal\"}"));
        assertEquals(1, redrives.dryRunMatches("{\"fingerprint\": \"dddddddddddd\"}"));
        assertEquals(2, redrives.dryRunMatches("{\"job\": \"pick\", \"ids\": [\"" + before + "\", \"" + micro + "\", \""
                + otherJob + "\"]}"));
        String window = "{\"job\": \"pick\", \"deadFrom\": \"2026-01-01T00:00:00.5Z\", \"deadTo\": \"2026-01-01T00:00:02Z\"}";
        assertEquals(4, redrives.dryRunMatches(window), "from (inclusive), micro, elsewhere, trimmed; not to (exclusive)");

        JsonPath done = redrives.completed("{\"filter\": " + window + ", \"maxPerSecond\": 0}");
        assertEquals(2, done.getLong("moved"), "from and micro");
        assertEquals(2, done.getLong("skipped"), "elsewhere (not writable) and trimmed (no snapshot)");
        List<StreamMessage<String, String, byte[]>> back = pick.streams().all("{pick}pick");
        assertEquals(List.of(pick.dlq() + "/" + from, pick.dlq() + "/" + micro), redrives.replaysIn("{pick}pick"));
        assertEquals(List.of(before, elsewhere, to, garbled, trimmed), redrives.listed("job=pick"));

        // Every move is audited with who started the task: one record for the step, a line per move.
        List<StreamMessage<String, String, byte[]>> audited = redrives.movesAudited(done.getString("id"));
        assertEquals(1, audited.size());
        Map<String, byte[]> record = audited.get(0).payload();
        assertEquals("operator", text(record.get("actor")));
        assertEquals("2", text(record.get("count")));
        assertEquals(List.of(from + " " + back.get(0).id() + " 1-0 {pick}pick", micro + " " + back.get(1).id() + " 1-0 {pick}pick"),
                List.of(text(record.get("moves")).split("\n")));
    }

    @Test
    void recordsThatCantBeSentBackAreRefusedOrSkippedBeforeAnythingIsWritten() {
        RedisDataSource redis = pick.redis();
        String good = redrives.park("{pick}odd", "odd", "exhausted", "eeeeeeeeeeee", "2026-01-01T00:00:00Z");
        // Not records redrive wrote: no origin-id, and a packed snapshot that does not decode.
        String noOriginId = redis.execute("XADD", pick.dlq(), "*", "origin-stream", "{pick}odd", "job", "odd", "failure",
                "exhausted", "fingerprint", "eeeeeeeeeeee", "dead-at", "2026-01-01T00:00:00Z", "f:payload", "x").toString();
        String corrupt = redis.execute("XADD", pick.dlq(), "*", "origin-stream", "{pick}odd", "origin-id", "2-0", "job", "odd",
                "failure", "exhausted", "fingerprint", "eeeeeeeeeeee", "dead-at", "2026-01-01T00:00:00Z", "snapshot",
                "packed", "snapshot-packed", "99:not a packed value").toString();
        String good2 = redrives.park("{pick}odd", "odd", "exhausted", "eeeeeeeeeeee", "2026-01-01T00:00:00Z");

        for (String id : List.of(noOriginId, corrupt)) {
            ValidatableResponse refused = as("operator").post(pick.dlqPath() + "/entries/" + id + "/replay").then();
            problem(refused, 409);
            refused.body("type", equalTo("/problems/no-snapshot"));
        }
        assertEquals(0, pick.streams().all("{pick}odd").size(), "a refused replay writes nothing");

        // In one step with good entries before and after them: skipped, and the step still ends
        // (an error half way through it used to repeat its earlier moves on every retry).
        JsonPath done = redrives.completed("{\"filter\": {\"origin\": \"{pick}odd\"}, \"maxPerSecond\": 0}");
        assertEquals(2, done.getLong("moved"));
        assertEquals(2, done.getLong("skipped"));
        redrives.noneTwice("{pick}odd", 2);
        assertEquals(List.of(pick.dlq() + "/" + good, pick.dlq() + "/" + good2), redrives.replaysIn("{pick}odd"));
        assertEquals(List.of(noOriginId, corrupt), redrives.listed("job=odd"));
    }

    /**
     * A stream a redrive may write to holding a string (SET on a queue's name): a redrive of other
     * origins completes, and one of its own entries skips them with the reason. Before, every step of
     * every redrive in the slot refused, and the task stayed running, holding the stream.
     */
    @Test
    void anOriginKeyOfAnotherTypeSkipsOnlyItsOwnEntries() {
        RedisDataSource redis = pick.redis();
        redis.execute("SET", "{pick}wrongtype", "a string");
        try {
            redrives.seed("{pick}wrongtype", 1);
            JsonPath beside = redrives.moveAll("{pick}beside", 3, "\"maxPerSecond\": 0");
            assertEquals(0, beside.getLong("skipped"));
            JsonPath own = redrives.completed("{\"filter\": {\"origin\": \"{pick}wrongtype\"}, \"maxPerSecond\": 0}");
            assertEquals(0, own.getLong("moved"));
            assertEquals(1, own.getLong("skipped"));
            assertEquals("skipped entries: {pick}wrongtype is a string, not a stream", own.getString("skipReason"));
            assertEquals(1, redrives.parkedFrom("{pick}wrongtype"));
        } finally {
            redis.execute("DEL", "{pick}wrongtype");
        }
    }

    @Test
    void automationMayReplayWhenSwitchedOnButNeverRedrive() {
        pick.add(Map.of("kind", "terminal", "job", "auto"));
        String dlqId = Await.value("the job to be parked", () -> pick.deadLetters().stream()
                .filter(m -> "auto".equals(text(m.payload().get("job")))).map(StreamMessage::id).findFirst().orElse(null));
        String replayed = as("automation").post(pick.dlqPath() + "/entries/" + dlqId + "/replay").then().statusCode(201)
                .extract().path("id");
        // The replayed job fails again (terminal) and is parked again by the worker, after this test
        // would otherwise have ended: wait, so that it does not land in a later test's count of the
        // stream (listingsDryRunsAndRedrivesPickTheSameEntries counts all of it).
        pick.awaitParked(replayed);
        problem(as("automation").contentType("application/json").body("{\"dryRun\":true}").post(pick.dlqPath() + "/redrives").then(), 403);
    }

    @Test
    void badRedriveRequestsAnswerProblems() {
        String redrives = pick.dlqPath() + "/redrives";
        problem(as("operator").contentType("application/json").body("{oops").post(redrives).then(), 400);
        problem(as("operator").post(redrives).then(), 400);
        problem(as("operator").contentType("application/json").body("{\"maxPerSecond\": -1}").post(redrives).then(), 400);
        problem(as("operator").contentType("application/json").body("{\"filter\": {\"failure\": \"bogus\"}}").post(redrives).then(), 400);
        problem(as("operator").contentType("application/json").body("{\"filter\": {\"colour\": \"red\"}}").post(redrives).then(), 400);
        problem(as("operator").contentType("application/json").body("{\"filter\": {\"deadFrom\": \"yesterday\"}}").post(redrives).then(), 400);
        problem(as("operator").contentType("application/json").body("{\"dryRun\": true}").post("/dlq/nope/redrives").then(), 404);
        problem(as("viewer").get(redrives + "/not-a-task").then(), 400);
        problem(as("viewer").get(redrives + "/0c1d6b0e-6c57-4a3c-9b43-0d6f5c2a0f11").then(), 404);
    }
}
