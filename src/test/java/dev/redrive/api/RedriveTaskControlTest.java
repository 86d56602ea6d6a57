package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.problem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redrive.RedriveRunner;
import dev.redrive.redrive.RunnerLifecycle;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.Redrives;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * A redrive task's life on a real redis-server: cancelled, it stops and what moved stays moved; a
 * restart resumes it from its cursor; one task per stream at a time, whoever races to start it;
 * and a task that cannot make progress is aborted with the reason. Nothing moves twice.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class RedriveTaskControlTest {

    @Inject
    @Own("ctl")
    TestQueue ctl;

    @Inject
    RedriveRunner runner;

    @Inject
    LuaScripts scripts;

    Redrives redrives;

    @BeforeEach
    void redrivesOfThisQueue() {
        redrives = new Redrives(ctl);
    }

    @Test
    void cancelStopsTheTaskAndWhatMovedStaysMovedOnce() {
        redrives.seed("{ctl}cancel", 3000);
        String task = redrives.start("{\"filter\": {\"origin\": \"{ctl}cancel\"}, \"maxPerSecond\": 1000}");
        Await.until("some entries to move", () -> redrives.status(task).getLong("moved") >= 300);
        as("operator").delete(ctl.dlqPath() + "/redrives/" + task).then().statusCode(200).body("state", equalTo("cancelled"));
        Await.until("the runner to stop", () -> !RunnerLifecycle.runsHere(runner, ctl.dlq(), task));
        long moved = redrives.status(task).getLong("moved");
        assertTrue(moved < 3000, "stopped mid-way at " + moved);
        redrives.noneTwice("{ctl}cancel", (int) moved);
        assertEquals(3000 - moved, redrives.parkedFrom("{ctl}cancel"));
        problem(as("operator").delete(ctl.dlqPath() + "/redrives/" + task).then(), 409);
    }

    @Test
    void restartResumesFromTheCursorAndMovesNothingTwice() {
        redrives.seed("{ctl}restart", 3000);
        String task = redrives.start("{\"filter\": {\"origin\": \"{ctl}restart\"}, \"maxPerSecond\": 1500}");
        Await.until("some entries to move", () -> redrives.status(task).getLong("moved") >= 300);
        RunnerLifecycle.shutDown(runner); // runs stop, leases are given up, the task stays unfinished
        Await.until("the runner to stop", () -> !RunnerLifecycle.runsHere(runner, ctl.dlq(), task));
        assertEquals("running", redrives.status(task).getString("state"), "unfinished, not lost");
        // A live replica takes the task over by itself every lease period; start-up does the same at once.
        RunnerLifecycle.takeOverAbandoned(runner);
        JsonPath done = redrives.awaitState(task, "completed");
        assertEquals(3000, done.getLong("moved"));
        redrives.noneTwice("{ctl}restart", 3000);
        assertEquals(0, redrives.parkedFrom("{ctl}restart"));
    }

    @Test
    void aSecondRedriveOfTheStreamWhileOneRunsIsRefusedNamingIt() throws Exception {
        redrives.seed("{ctl}overlap", 2000);
        String body = "{\"filter\": {\"origin\": \"{ctl}overlap\"}, \"maxPerSecond\": 100}";
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Response>> posts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            posts.add(pool.submit(() -> {
                go.await();
                return as("operator").contentType("application/json").body(body).post(ctl.dlqPath() + "/redrives");
            }));
        }
        go.countDown();
        List<Response> answers = new ArrayList<>();
        for (Future<Response> f : posts) {
            answers.add(f.get());
        }
        pool.shutdown();
        List<Integer> statuses = answers.stream().map(Response::statusCode).sorted().toList();
        assertEquals(List.of(202, 409), statuses);
        String running = answers.stream().filter(r -> r.statusCode() == 202).findFirst().orElseThrow().path("id");
        Response refused = answers.stream().filter(r -> r.statusCode() == 409).findFirst().orElseThrow();
        problem(refused.then(), 409);
        refused.then().body("type", equalTo("/problems/redrive-running")).body("detail", containsString(running));

        // A dry run moves nothing, so it may count beside the running task.
        JsonPath dry = redrives.completed("{\"filter\": {\"origin\": \"{ctl}overlap\"}, \"dryRun\": true}");
        assertEquals(0, dry.getLong("moved"));
        problem(as("operator").contentType("application/json").body(body).post(ctl.dlqPath() + "/redrives").then(), 409);

        as("operator").delete(ctl.dlqPath() + "/redrives/" + running).then().statusCode(200);
        Await.until("the runner to stop", () -> !RunnerLifecycle.runsHere(runner, ctl.dlq(), running));
        long first = redrives.status(running).getLong("moved");
        // A cancelled task blocks nothing: the next one moves the rest, and reports exactly that.
        JsonPath rest = redrives.completed("{\"filter\": {\"origin\": \"{ctl}overlap\"}, \"maxPerSecond\": 0}");
        assertEquals(2000 - first, rest.getLong("matched"));
        assertEquals(2000 - first, rest.getLong("moved"));
        assertEquals(0, rest.getLong("skipped"));
        redrives.noneTwice("{ctl}overlap", 2000);
        // Nor does a completed one.
        redrives.seed("{ctl}overlap", 1);
        assertEquals(1, redrives.completed(body).getLong("moved"));
    }

    @Test
    void aStartThatRacedAnotherWritesNothingAndReadsThePointerAgain() {
        RedisDataSource redis = ctl.redis();
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
        List<String> keys = List.of(RedisKeys.audit(dlq), RedisKeys.redriveRunning(dlq),
                RedisKeys.redriveTask(dlq, seen.isEmpty() ? id : seen), RedisKeys.redriveTask(dlq, id),
                RedisKeys.redriveTasks(dlq));
        List<String> args = List.of(seen, id, "1", "0", "id", id, "state", "counting");
        List<String> reply = new ArrayList<>();
        scripts.run(LuaScripts.Script.REDRIVE_START, keys, args).await().atMost(Await.BOUND).forEach(r -> reply.add(r.toString()));
        return reply;
    }

    /**
     * A key the task itself writes (the stream's counters) of another type: no step can move
     * anything, so after a bounded number of runs the task is aborted with the reason instead of
     * holding the stream, and a new redrive may start.
     */
    @Test
    void aTaskThatCanNotMakeProgressIsAbortedWithTheReason() {
        RedisDataSource redis = ctl.redis();
        redrives.seed("{ctl}stuck", 1);
        String stats = ctl.dlq() + ":stats";
        Map<String, String> counters = redis.hash(String.class).hgetall(stats);
        redis.execute("DEL", stats);
        redis.execute("SET", stats, "a string");
        try {
            JsonPath aborted = redrives.awaitState(redrives.start("{\"filter\": {\"origin\": \"{ctl}stuck\"}, \"maxPerSecond\": 0}"),
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
        assertEquals(1, redrives.parkedFrom("{ctl}stuck"), "nothing moved");
    }
}
