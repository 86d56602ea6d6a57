package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Streams.text;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.Redrives;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * How much a bulk redrive moves, on a real redis-server: every entry once at the pace asked or
 * unpaced, a canary of exactly the size asked, a canary that fails again aborting the rest, and a
 * dry run that moves nothing.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class RedrivePaceTest {

    @Inject
    @Own("jobs")
    TestQueue jobs;

    Redrives redrives;

    @BeforeEach
    void redrivesOfThisQueue() {
        redrives = new Redrives(jobs);
    }

    @Test
    void tenThousandEntriesMoveInPacedStepsEachOnce() {
        JsonPath done = redrives.moveAll("{jobs}pace", 10_000, "\"maxPerSecond\": 1500, \"note\": \"provider back\"");
        assertEquals(0, done.getLong("skipped"));
        String task = done.getString("id");
        // At 1500/s a step moves a twentieth of a second's worth, 75, one step at a time; when each
        // step starts is Pace's arithmetic (PaceTest), not something a shared CI box can time.
        List<String> steps = redrives.movesAudited(task).stream().map(m -> text(m.payload().get("count"))).toList();
        List<String> expected = new ArrayList<>(Collections.nCopies(133, "75"));
        expected.add("25");
        assertEquals(expected, steps);
        as("viewer").get("/dlq").then().body("find { it.name == '" + jobs.dlq() + "' }.byOrigin['{jobs}pace']", equalTo(null));
    }

    @Test
    void withoutARateLimitEveryEntryMovesOnce() {
        redrives.moveAll("{jobs}fast", 5_000, "\"maxPerSecond\": 0");
    }

    @Test
    void canaryWhoseJobsAllFailAgainAbortsTheRest() {
        for (int i = 0; i < 10; i++) {
            jobs.add(Map.of("kind", "terminal", "job", "canary-job", "n", i));
        }
        Await.until("10 jobs parked", () -> jobsNamed("canary-job") == 10);
        String task = redrives.start("{\"filter\": {\"origin\": \"jobs\", \"job\": \"canary-job\"}, \"maxPerSecond\": 100,"
                + " \"canary\": 3, \"maxRefailRate\": 0.5}");
        JsonPath aborted = redrives.awaitState(task, "aborted");
        assertEquals(3, aborted.getLong("moved"));
        assertEquals(3, aborted.getLong("failed"));
        assertTrue(aborted.getString("detail").contains("3 of 3"), aborted.getString("detail"));
        assertEquals(10, jobsNamed("canary-job"), "7 never moved, 3 parked again");
        assertEquals(3, jobs.deadLetters().stream().filter(m -> "canary-job".equals(text(m.payload().get("job"))))
                .filter(m -> "1".equals(text(m.payload().get("replays")))).count());
    }

    @Test
    void dryRunCountsAndMovesNothing() {
        redrives.seed("{jobs}dry", 50);
        JsonPath done = redrives.completed("{\"filter\": {\"origin\": \"{jobs}dry\"}, \"dryRun\": true}");
        assertEquals(50, done.getLong("matched"));
        assertEquals(0, done.getLong("moved"));
        assertEquals(50, redrives.parkedFrom("{jobs}dry"));
        assertEquals(0, jobs.streams().all("{jobs}dry").size());
    }

    @Test
    void theCanaryMovesExactlyAsManyAsAskedWhateverThePace() {
        for (int pace : new int[] { 20, 50 }) {
            redrives.seed("{jobs}canary", 12);
            String task = redrives.start("{\"filter\": {\"origin\": \"{jobs}canary\"}, \"maxPerSecond\": " + pace
                    + ", \"canary\": 5}");
            JsonPath done = redrives.awaitState(task, "completed");
            assertEquals(5, done.getLong("canaryMoved"), "canary at " + pace + "/s");
            assertEquals(5, jobs.redis().list(String.class).llen(RedisKeys.redriveCanary(jobs.dlq(), task)),
                    "canary jobs at " + pace + "/s");
            assertEquals(12, done.getLong("moved"));
        }
        redrives.noneTwice("{jobs}canary", 24);

        redrives.seed("{jobs}canary", 3);
        JsonPath few = redrives.completed("{\"filter\": {\"origin\": \"{jobs}canary\"}, \"maxPerSecond\": 20, \"canary\": 5}");
        assertEquals(3, few.getLong("canaryMoved"), "a canary larger than what matches moves what matches");
        assertEquals(3, few.getLong("moved"));
        redrives.noneTwice("{jobs}canary", 27);
    }

    long jobsNamed(String job) {
        return jobs.deadLetters().stream().filter(m -> job.equals(text(m.payload().get("job")))).count();
    }
}
