package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static dev.redrive.testing.Streams.text;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.RecordField;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redrive.RedriveRunner;
import dev.redrive.redrive.RunnerLifecycle;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/** Bulk redrives on a real redis-server: pace, cancel, restart, canary, dry run; nothing moves twice. */
@QuarkusTest
@TestProfile(ApiProfile.class)
class RedriveApiTest {

    @Inject
    @Own("jobs")
    TestQueue jobs;

    @Inject
    RedisDataSource redis;

    @Inject
    RedriveRunner runner;

    @Inject
    LuaScripts scripts;

    void seed(String origin, int n) {
        DeadLetterSeed.parkMany(redis, jobs.dlq(), origin, n);
    }

    String start(String body) {
        return as("operator").contentType("application/json").body(body).post(jobs.dlqPath() + "/redrives")
                .then().statusCode(202).extract().path("id");
    }

    JsonPath status(String task) {
        return as("viewer").get(jobs.dlqPath() + "/redrives/" + task).then().statusCode(200).extract().jsonPath();
    }

    JsonPath awaitState(String task, String state) {
        return Await.value("redrive " + task + " to be " + state, () -> {
            JsonPath s = status(task);
            return state.equals(s.getString("state")) ? s : null;
        });
    }

    long parkedFrom(String origin) {
        return jobs.deadLetters().stream().filter(m -> origin.equals(text(m.payload().get("origin-stream")))).count();
    }

    /** Every job in the stream came from a different dead letter: none was moved twice. */
    void noneTwice(String stream, int expected) {
        List<StreamMessage<String, String, byte[]>> all = jobs.streams().all(stream);
        Set<String> sources = new HashSet<>();
        all.forEach(m -> sources.add(text(m.payload().get("replay-of"))));
        assertEquals(expected, all.size(), "jobs in " + stream);
        assertEquals(expected, sources.size(), "distinct dead letters behind them");
    }

    @Test
    void tenThousandEntriesMoveInPacedStepsEachOnce() {
        seed("{jobs}pace", 10_000);
        String task = start("{\"filter\": {\"origin\": \"{jobs}pace\"}, \"maxPerSecond\": 1500, \"note\": \"provider back\"}");
        JsonPath done = awaitState(task, "completed");
        assertEquals(10_000, done.getLong("moved"));
        assertEquals(0, done.getLong("remaining"));
        assertEquals(0, done.getLong("skipped"));
        noneTwice("{jobs}pace", 10_000);
        assertEquals(0, parkedFrom("{jobs}pace"));
        // At 1500/s a step moves a twentieth of a second's worth, 75, one step at a time; when each
        // step starts is Pace's arithmetic (PaceTest), not something a shared CI box can time.
        List<String> steps = jobs.streams().all(jobs.dlq() + ":audit").stream()
                .filter(m -> "redrive-moves".equals(text(m.payload().get("action"))))
                .filter(m -> task.equals(text(m.payload().get("task")))).map(m -> text(m.payload().get("count"))).toList();
        List<String> expected = new ArrayList<>(java.util.Collections.nCopies(133, "75"));
        expected.add("25");
        assertEquals(expected, steps);
        as("viewer").get("/dlq").then().body("find { it.name == '" + jobs.dlq() + "' }.byOrigin['{jobs}pace']", equalTo(null));
    }

    @Test
    void withoutARateLimitEveryEntryMovesOnce() {
        seed("{jobs}fast", 5_000);
        String task = start("{\"filter\": {\"origin\": \"{jobs}fast\"}, \"maxPerSecond\": 0}");
        JsonPath done = awaitState(task, "completed");
        assertEquals(5_000, done.getLong("moved"));
        assertEquals(0, done.getLong("remaining"));
        noneTwice("{jobs}fast", 5_000);
        assertEquals(0, parkedFrom("{jobs}fast"));
    }

    @Test
    void cancelStopsTheTaskAndWhatMovedStaysMovedOnce() {
        seed("{jobs}cancel", 3000);
        String task = start("{\"filter\": {\"origin\": \"{jobs}cancel\"}, \"maxPerSecond\": 1000}");
        Await.until("some entries to move", () -> status(task).getLong("moved") >= 300);
        as("operator").delete(jobs.dlqPath() + "/redrives/" + task).then().statusCode(200).body("state", equalTo("cancelled"));
        Await.until("the runner to stop", () -> !RunnerLifecycle.runsHere(runner, jobs.dlq(), task));
        long moved = status(task).getLong("moved");
        assertTrue(moved < 3000, "stopped mid-way at " + moved);
        noneTwice("{jobs}cancel", (int) moved);
        assertEquals(3000 - moved, parkedFrom("{jobs}cancel"));
        problem(as("operator").delete(jobs.dlqPath() + "/redrives/" + task).then(), 409);
    }

    @Test
    void restartResumesFromTheCursorAndMovesNothingTwice() {
        seed("{jobs}restart", 3000);
        String task = start("{\"filter\": {\"origin\": \"{jobs}restart\"}, \"maxPerSecond\": 1500}");
        Await.until("some entries to move", () -> status(task).getLong("moved") >= 300);
        RunnerLifecycle.shutDown(runner); // runs stop, leases are given up, the task stays unfinished
        Await.until("the runner to stop", () -> !RunnerLifecycle.runsHere(runner, jobs.dlq(), task));
        assertEquals("running", status(task).getString("state"), "unfinished, not lost");
        // A live replica takes the task over by itself every lease period; start-up does the same at once.
        RunnerLifecycle.takeOverAbandoned(runner);
        JsonPath done = awaitState(task, "completed");
        assertEquals(3000, done.getLong("moved"));
        noneTwice("{jobs}restart", 3000);
        assertEquals(0, parkedFrom("{jobs}restart"));
    }

    @Test
    void canaryWhoseJobsAllFailAgainAbortsTheRest() {
        for (int i = 0; i < 10; i++) {
            jobs.add(Map.of("kind", "terminal", "job", "canary-job", "n", i));
        }
        Await.until("10 jobs parked", () -> jobsNamed("canary-job") == 10);
        String task = start("{\"filter\": {\"origin\": \"jobs\", \"job\": \"canary-job\"}, \"maxPerSecond\": 100,"
                + " \"canary\": 3, \"maxRefailRate\": 0.5}");
        JsonPath aborted = awaitState(task, "aborted");
        assertEquals(3, aborted.getLong("moved"));
        assertEquals(3, aborted.getLong("failed"));
        assertTrue(aborted.getString("detail").contains("3 of 3"), aborted.getString("detail"));
        assertEquals(10, jobsNamed("canary-job"), "7 never moved, 3 parked again");
        assertEquals(3, jobs.deadLetters().stream().filter(m -> "canary-job".equals(text(m.payload().get("job"))))
                .filter(m -> "1".equals(text(m.payload().get("replays")))).count());
    }

    @Test
    void dryRunCountsAndMovesNothing() {
        seed("{jobs}dry", 50);
        String task = start("{\"filter\": {\"origin\": \"{jobs}dry\"}, \"dryRun\": true}");
        JsonPath done = awaitState(task, "completed");
        assertEquals(50, done.getLong("matched"));
        assertEquals(0, done.getLong("moved"));
        assertEquals(50, parkedFrom("{jobs}dry"));
        assertEquals(0, jobs.streams().all("{jobs}dry").size());
    }

    @Test
    void theCanaryMovesExactlyAsManyAsAskedWhateverThePace() {
        for (int pace : new int[] { 20, 50 }) {
            seed("{jobs}canary", 12);
            String task = start("{\"filter\": {\"origin\": \"{jobs}canary\"}, \"maxPerSecond\": " + pace
                    + ", \"canary\": 5}");
            JsonPath done = awaitState(task, "completed");
            assertEquals(5, done.getLong("canaryMoved"), "canary at " + pace + "/s");
            assertEquals(5, redis.list(String.class).llen(RedisKeys.redriveCanary(jobs.dlq(), task)), "canary jobs at " + pace + "/s");
            assertEquals(12, done.getLong("moved"));
        }
        noneTwice("{jobs}canary", 24);

        seed("{jobs}canary", 3);
        JsonPath few = awaitState(start("{\"filter\": {\"origin\": \"{jobs}canary\"}, \"maxPerSecond\": 20, "
                + "\"canary\": 5}"), "completed");
        assertEquals(3, few.getLong("canaryMoved"), "a canary larger than what matches moves what matches");
        assertEquals(3, few.getLong("moved"));
        noneTwice("{jobs}canary", 27);
    }

    @Test
    void aSecondRedriveOfTheStreamWhileOneRunsIsRefusedNamingIt() throws Exception {
        seed("{jobs}overlap", 2000);
        String body = "{\"filter\": {\"origin\": \"{jobs}overlap\"}, \"maxPerSecond\": 100}";
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<io.restassured.response.Response>> posts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            posts.add(pool.submit(() -> {
                go.await();
                return as("operator").contentType("application/json").body(body).post(jobs.dlqPath() + "/redrives");
            }));
        }
        go.countDown();
        List<io.restassured.response.Response> answers = new ArrayList<>();
        for (Future<io.restassured.response.Response> f : posts) {
            answers.add(f.get());
        }
        pool.shutdown();
        List<Integer> statuses = answers.stream().map(io.restassured.response.Response::statusCode).sorted().toList();
        assertEquals(List.of(202, 409), statuses);
        String running = answers.stream().filter(r -> r.statusCode() == 202).findFirst().orElseThrow().path("id");
        io.restassured.response.Response refused = answers.stream().filter(r -> r.statusCode() == 409).findFirst()
                .orElseThrow();
        problem(refused.then(), 409);
        refused.then().body("type", equalTo("/problems/redrive-running"))
                .body("detail", org.hamcrest.Matchers.containsString(running));

        // A dry run moves nothing, so it may count beside the running task.
        JsonPath dry = awaitState(start("{\"filter\": {\"origin\": \"{jobs}overlap\"}, \"dryRun\": true}"), "completed");
        assertEquals(0, dry.getLong("moved"));
        problem(as("operator").contentType("application/json").body(body).post(jobs.dlqPath() + "/redrives").then(), 409);

        as("operator").delete(jobs.dlqPath() + "/redrives/" + running).then().statusCode(200);
        Await.until("the runner to stop", () -> !RunnerLifecycle.runsHere(runner, jobs.dlq(), running));
        long first = status(running).getLong("moved");
        // A cancelled task blocks nothing: the next one moves the rest, and reports exactly that.
        JsonPath rest = awaitState(start("{\"filter\": {\"origin\": \"{jobs}overlap\"}, \"maxPerSecond\": 0}"),
                "completed");
        assertEquals(2000 - first, rest.getLong("matched"));
        assertEquals(2000 - first, rest.getLong("moved"));
        assertEquals(0, rest.getLong("skipped"));
        noneTwice("{jobs}overlap", 2000);
        // Nor does a completed one.
        seed("{jobs}overlap", 1);
        assertEquals(1, awaitState(start(body), "completed").getLong("moved"));
    }

    @Test
    void aStartThatRacedAnotherWritesNothingAndReadsThePointerAgain() {
        String dlq = "{start-race}:dlq";
        String pointer = RedisKeys.redriveRunning(dlq);
        String running = "11111111-1111-1111-1111-111111111111";
        String mine = "22222222-2222-2222-2222-222222222222";
        redis.value(String.class).set(pointer, running);
        redis.hash(String.class).hset(RedisKeys.redriveTask(dlq, running), Map.of("state", "running"));

        // It read no pointer, but another start set one since: nothing written, read again.
        assertEquals(List.of("changed"), startScript(dlq, "", mine));
        // Read again: that task runs.
        assertEquals(List.of("running", running, "running"), startScript(dlq, running, mine));
        assertFalse(redis.key().exists(RedisKeys.redriveTask(dlq, mine)), "no task written");
        assertEquals(running, redis.value(String.class).get(pointer));
        // Once it has finished, the next start takes the pointer.
        redis.hash(String.class).hset(RedisKeys.redriveTask(dlq, running), Map.of("state", "aborted"));
        assertEquals(List.of("started"), startScript(dlq, running, mine));
        assertEquals(mine, redis.value(String.class).get(pointer));
        assertEquals("counting", redis.hash(String.class).hget(RedisKeys.redriveTask(dlq, mine), "state"));
        assertEquals(List.of(mine), redis.sortedSet(String.class).zrange(RedisKeys.redriveTasks(dlq), 0, -1));
    }

    List<String> startScript(String dlq, String seen, String id) {
        List<String> keys = List.of(RedisKeys.redriveRunning(dlq),
                RedisKeys.redriveTask(dlq, seen.isEmpty() ? id : seen), RedisKeys.redriveTask(dlq, id),
                RedisKeys.redriveTasks(dlq));
        List<String> args = List.of(seen, id, "1", "0", "id", id, "state", "counting");
        List<String> reply = new ArrayList<>();
        scripts.run(LuaScripts.Script.REDRIVE_START, keys, args).await().atMost(Await.BOUND).forEach(r -> reply.add(r.toString()));
        return reply;
    }

    /** Parks one record as given (a snapshot field unless the record says it has none); returns its id. */
    String park(String origin, String job, String failure, String fingerprint, String deadAt) {
        DeadLetterSeed record = DeadLetterSeed.from(origin, "1-0").with(RecordField.JOB, job)
                .with(RecordField.FAILURE, failure).with(RecordField.FINGERPRINT, fingerprint)
                .with(RecordField.DEAD_AT, deadAt);
        return (failure.equals("missing") ? record.snapshotMissing() : record.snapshot("payload", job + " " + deadAt))
                .park(redis, jobs.dlq());
    }

    /** Every entry a listing with this query finds, following its cursor to the end. */
    List<String> listed(String query) {
        List<String> ids = new ArrayList<>();
        String after = null;
        do {
            JsonPath page = as("viewer").get(jobs.dlqPath() + "/entries?order=oldest&count=500&" + query
                    + (after == null ? "" : "&after=" + after)).then().statusCode(200).extract().jsonPath();
            ids.addAll(page.getList("items.id", String.class));
            after = page.getString("next");
        } while (after != null);
        return ids;
    }

    long dryRunMatches(String filter) {
        return awaitState(start("{\"filter\": " + filter + ", \"dryRun\": true}"), "completed").getLong("matched");
    }

    @Test
    void listingsDryRunsAndRedrivesPickTheSameEntries() {
        String before = park("{jobs}pick", "pick", "exhausted", "cccccccccccc", "2026-01-01T00:00:00Z");
        String from = park("{jobs}pick", "pick", "terminal", "cccccccccccc", "2026-01-01T00:00:00.500Z");
        String micro = park("{jobs}pick", "pick", "exhausted", "dddddddddddd", "2026-01-01T00:00:01.000001Z");
        String elsewhere = park("{jobs}elsewhere", "pick", "exhausted", "cccccccccccc", "2026-01-01T00:00:01.999999999Z");
        String to = park("{jobs}pick", "pick", "exhausted", "cccccccccccc", "2026-01-01T00:00:02Z");
        String garbled = park("{jobs}pick", "pick", "exhausted", "cccccccccccc", "not a time");
        String trimmed = park("{jobs}pick", "pick", "missing", "cccccccccccc", "2026-01-01T00:00:01Z");
        String otherJob = park("{jobs}pick", "pick-other", "exhausted", "cccccccccccc", "2026-01-01T00:00:01Z");

        assertEquals(List.of(before, from, micro, elsewhere, to, garbled, trimmed), listed("job=pick"));
        assertEquals(List.of(elsewhere), listed("job=pick&origin=" + enc("{jobs}elsewhere")));
        assertEquals(List.of(from), listed("job=pick&failure=terminal"));
        assertEquals(List.of(micro), listed("fingerprint=dddddddddddd"));
        assertEquals(List.of(otherJob), listed("job=pick-other&failure=exhausted&fingerprint=cccccccccccc"));

        long all = redis.stream(String.class).xlen(jobs.dlq());
        assertEquals(all, dryRunMatches("{}"), "an empty filter counts the stream without reading it");
        assertEquals(7, dryRunMatches("{\"job\": \"pick\"}"));
        assertEquals(1, dryRunMatches("{\"job\": \"pick\", \"origin\": \"{jobs}elsewhere\"}"));
        assertEquals(1, dryRunMatches("{\"job\": \"pick\", \"failure\": \"terminal\"}"));
        assertEquals(1, dryRunMatches("{\"fingerprint\": \"dddddddddddd\"}"));
        assertEquals(2, dryRunMatches("{\"job\": \"pick\", \"ids\": [\"" + before + "\", \"" + micro + "\", \""
                + otherJob + "\"]}"));
        String window = "{\"job\": \"pick\", \"deadFrom\": \"2026-01-01T00:00:00.5Z\", \"deadTo\": \"2026-01-01T00:00:02Z\"}";
        assertEquals(4, dryRunMatches(window), "from (inclusive), micro, elsewhere, trimmed; not to (exclusive)");

        String task = start("{\"filter\": " + window + ", \"maxPerSecond\": 0}");
        JsonPath done = awaitState(task, "completed");
        assertEquals(2, done.getLong("moved"), "from and micro");
        assertEquals(2, done.getLong("skipped"), "elsewhere (not writable) and trimmed (no snapshot)");
        List<StreamMessage<String, String, byte[]>> back = jobs.streams().all("{jobs}pick");
        assertEquals(List.of(jobs.dlq() + "/" + from, jobs.dlq() + "/" + micro),
                back.stream().map(m -> text(m.payload().get("replay-of"))).toList());
        assertEquals(List.of(before, elsewhere, to, garbled, trimmed), listed("job=pick"));

        // Every move is audited with who started the task: one record for the step, a line per move.
        List<StreamMessage<String, String, byte[]>> audited = jobs.streams().all(jobs.dlq() + ":audit").stream()
                .filter(m -> "redrive-moves".equals(text(m.payload().get("action"))))
                .filter(m -> task.equals(text(m.payload().get("task")))).toList();
        assertEquals(1, audited.size());
        Map<String, byte[]> record = audited.get(0).payload();
        assertEquals("operator", text(record.get("actor")));
        assertEquals("2", text(record.get("count")));
        assertEquals(List.of(from + " " + back.get(0).id() + " 1-0 {jobs}pick", micro + " " + back.get(1).id() + " 1-0 {jobs}pick"),
                List.of(text(record.get("moves")).split("\n")));
    }

    @Test
    void recordsThatCantBeSentBackAreRefusedOrSkippedBeforeAnythingIsWritten() {
        String good = park("{jobs}odd", "odd", "exhausted", "eeeeeeeeeeee", "2026-01-01T00:00:00Z");
        // Not records redrive wrote: no origin-id, and a packed snapshot that does not decode.
        String noOriginId = redis.execute("XADD", jobs.dlq(), "*", "origin-stream", "{jobs}odd", "job", "odd", "failure",
                "exhausted", "fingerprint", "eeeeeeeeeeee", "dead-at", "2026-01-01T00:00:00Z", "f:payload", "x").toString();
        String corrupt = redis.execute("XADD", jobs.dlq(), "*", "origin-stream", "{jobs}odd", "origin-id", "2-0", "job", "odd",
                "failure", "exhausted", "fingerprint", "eeeeeeeeeeee", "dead-at", "2026-01-01T00:00:00Z", "snapshot",
                "packed", "snapshot-packed", "99:not a packed value").toString();
        String good2 = park("{jobs}odd", "odd", "exhausted", "eeeeeeeeeeee", "2026-01-01T00:00:00Z");

        for (String id : List.of(noOriginId, corrupt)) {
            ValidatableResponse refused = as("operator").post(jobs.dlqPath() + "/entries/" + id + "/replay").then();
            problem(refused, 409);
            refused.body("type", equalTo("/problems/no-snapshot"));
        }
        assertEquals(0, jobs.streams().all("{jobs}odd").size(), "a refused replay writes nothing");

        // In one step with good entries before and after them: skipped, and the step still ends
        // (an error half way through it used to repeat its earlier moves on every retry).
        String task = start("{\"filter\": {\"origin\": \"{jobs}odd\"}, \"maxPerSecond\": 0}");
        JsonPath done = awaitState(task, "completed");
        assertEquals(2, done.getLong("moved"));
        assertEquals(2, done.getLong("skipped"));
        noneTwice("{jobs}odd", 2);
        assertEquals(List.of(jobs.dlq() + "/" + good, jobs.dlq() + "/" + good2),
                jobs.streams().all("{jobs}odd").stream().map(m -> text(m.payload().get("replay-of"))).toList());
        assertEquals(List.of(noOriginId, corrupt), listed("job=odd"));
    }

    /**
     * A stream a redrive may write to holding a string (SET on a queue's name): a redrive of other
     * origins completes, and one of its own entries skips them with the reason. Before, every step of
     * every redrive in the slot refused, and the task stayed running, holding the stream.
     */
    @Test
    void anOriginKeyOfAnotherTypeSkipsOnlyItsOwnEntries() {
        redis.execute("SET", "{jobs}wrongtype", "a string");
        try {
            seed("{jobs}wrongtype", 1);
            seed("{jobs}beside", 3);
            JsonPath beside = awaitState(start("{\"filter\": {\"origin\": \"{jobs}beside\"}, \"maxPerSecond\": 0}"),
                    "completed");
            assertEquals(3, beside.getLong("moved"));
            assertEquals(0, beside.getLong("skipped"));
            noneTwice("{jobs}beside", 3);
            JsonPath own = awaitState(start("{\"filter\": {\"origin\": \"{jobs}wrongtype\"}, \"maxPerSecond\": 0}"),
                    "completed");
            assertEquals(0, own.getLong("moved"));
            assertEquals(1, own.getLong("skipped"));
            assertEquals("skipped entries: {jobs}wrongtype is a string, not a stream", own.getString("skipReason"));
            assertEquals(1, parkedFrom("{jobs}wrongtype"));
        } finally {
            redis.execute("DEL", "{jobs}wrongtype");
        }
    }

    /**
     * A key the task itself writes (the stream's counters) of another type: no step can move
     * anything, so after a bounded number of runs the task is aborted with the reason instead of
     * holding the stream, and a new redrive may start.
     */
    @Test
    void aTaskThatCanNotMakeProgressIsAbortedWithTheReason() {
        seed("{jobs}stuck", 1);
        String stats = jobs.dlq() + ":stats";
        Map<String, String> counters = redis.hash(String.class).hgetall(stats);
        redis.execute("DEL", stats);
        redis.execute("SET", stats, "a string");
        try {
            JsonPath aborted = awaitState(start("{\"filter\": {\"origin\": \"{jobs}stuck\"}, \"maxPerSecond\": 0}"),
                    "aborted");
            assertTrue(aborted.getString("detail").contains("could not make progress after 5 tries"),
                    aborted.getString("detail"));
            assertTrue(aborted.getString("detail").contains(stats + " is a string"), aborted.getString("detail"));
        } finally {
            redis.execute("DEL", stats);
            if (!counters.isEmpty()) {
                redis.hash(String.class).hset(stats, counters);
            }
        }
        assertEquals(1, parkedFrom("{jobs}stuck"), "nothing moved");
    }

    @Test
    void automationMayReplayWhenSwitchedOnButNeverRedrive() {
        jobs.add(Map.of("kind", "terminal", "job", "auto"));
        String dlqId = Await.value("the job to be parked", () -> jobs.deadLetters().stream()
                .filter(m -> "auto".equals(text(m.payload().get("job")))).map(StreamMessage::id).findFirst().orElse(null));
        as("automation").post(jobs.dlqPath() + "/entries/" + dlqId + "/replay").then().statusCode(201);
        problem(as("automation").contentType("application/json").body("{\"dryRun\":true}").post(jobs.dlqPath() + "/redrives").then(), 403);
    }

    @Test
    void badRedriveRequestsAnswerProblems() {
        problem(as("operator").contentType("application/json").body("{oops").post(jobs.dlqPath() + "/redrives").then(), 400);
        problem(as("operator").post(jobs.dlqPath() + "/redrives").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"maxPerSecond\": -1}").post(jobs.dlqPath() + "/redrives").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"filter\": {\"failure\": \"bogus\"}}")
                .post(jobs.dlqPath() + "/redrives").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"filter\": {\"colour\": \"red\"}}")
                .post(jobs.dlqPath() + "/redrives").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"filter\": {\"deadFrom\": \"yesterday\"}}")
                .post(jobs.dlqPath() + "/redrives").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"dryRun\": true}").post("/dlq/nope/redrives").then(), 404);
        problem(as("viewer").get(jobs.dlqPath() + "/redrives/not-a-task").then(), 400);
        problem(as("viewer").get(jobs.dlqPath() + "/redrives/0c1d6b0e-6c57-4a3c-9b43-0d6f5c2a0f11").then(), 404);
    }

    long jobsNamed(String job) {
        return jobs.deadLetters().stream().filter(m -> job.equals(text(m.payload().get("job")))).count();
    }

}
