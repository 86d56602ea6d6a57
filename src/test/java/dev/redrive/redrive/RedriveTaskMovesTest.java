package dev.redrive.redrive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * A task's state moves are compared and set in Redis (redrive-move.lua): a runner and an operator
 * move the same task from different processes, and a move from a state the task has already left
 * must write nothing. Before, each wrote the state without looking, so a runner's "running" just
 * after a cancel brought the task back and its steps went on moving entries.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class RedriveTaskMovesTest {

    /** A stream no queue uses: no runner of this boot takes its tasks over. */
    static final String DLQ = "{moves}dlq";

    @Inject
    RedriveTaskStore store;

    @Inject
    RedriveConfig config;

    @Inject
    RedisDataSource redis;

    RedriveTask begun() {
        RedriveSpec spec = new RedriveSpec(EntryFilter.ALL, 0, false, 0, 0.0, null);
        RedriveTask task = RedriveTask.begun(UUID.randomUUID().toString(), DLQ, store.json(spec.filter()), spec, "0-0",
                "tester", store.now());
        store.create(task);
        return task;
    }

    @Test
    void aRunnerThatSawTheTaskBeforeACancelCanNotBringItBack() {
        RedriveTask seenByRunner = begun();

        assertTrue(store.finish(seenByRunner, RedriveState.CANCELLED, "cancelled by tester"), "the operator's cancel");
        assertFalse(store.advance(seenByRunner, RedriveState.RUNNING), "the runner's move from counting");
        assertFalse(store.finish(seenByRunner, RedriveState.COMPLETED, ""), "the runner's end");

        RedriveTask now = store.get(DLQ, seenByRunner.id());
        assertEquals(RedriveState.CANCELLED, now.state());
        assertEquals("cancelled by tester", now.detail());
        assertTrue(store.ids(DLQ).contains(seenByRunner.id()), "in the index until a claim finds it finished");
        assertFalse(store.claim(DLQ, seenByRunner.id(), "a-runner"), "a cancelled task can't be claimed to run on");
        assertFalse(store.ids(DLQ).contains(seenByRunner.id()),
                "the index every replica walks for abandoned tasks keeps only unfinished ones");
        long ttl = redis.key().pttl(RedisKeys.redriveTask(DLQ, seenByRunner.id()));
        assertTrue(ttl > 0 && ttl <= config.replay().redriveRetention().toMillis(),
                "a finished task is kept for the retention, then forgotten: " + ttl);
    }

    @Test
    void aCancelThatSawTheTaskRunningWritesNothingOnceTheRunnerHasFinishedIt() {
        RedriveTask task = begun();
        assertTrue(store.advance(task, RedriveState.CANARY));
        task = task.in(RedriveState.CANARY);
        assertTrue(store.advance(task, RedriveState.RUNNING));
        RedriveTask seenByOperator = task.in(RedriveState.RUNNING);
        assertTrue(store.finish(seenByOperator, RedriveState.COMPLETED, ""), "the runner's end");

        assertFalse(store.finish(seenByOperator, RedriveState.CANCELLED, "cancelled by tester"));
        RedriveTask now = store.get(DLQ, task.id());
        assertEquals(RedriveState.COMPLETED, now.state());
        assertEquals("", now.detail());
    }
}
