package dev.redrive.redis;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.sortedset.ScoreRange;
import io.quarkus.redis.datasource.sortedset.ZRangeArgs;
import io.smallrye.mutiny.Uni;

/**
 * The plain commands on a bulk redrive's keys ({@link RedisKeys#redriveTask} and its neighbours):
 * the task hash, the stream's running-task pointer, its task index and a task's canary list. The
 * atomic transitions are scripts (redrive-start.lua, redrive-claim.lua, redrive-move.lua,
 * redrive-count.lua, redrive-step.lua); what the fields mean is the redrive package's.
 */
@ApplicationScoped
public class TaskHashes {

    @Inject
    ReactiveRedisDataSource redis;

    /** Every field of the task hash; empty when there is no such task (never started, or expired). */
    public Uni<Map<String, String>> read(String deadLetters, String taskId) {
        return redis.hash(String.class, String.class, String.class).hgetall(RedisKeys.redriveTask(deadLetters, taskId));
    }

    public Uni<Void> write(String deadLetters, String taskId, Map<String, String> fields) {
        return redis.hash(String.class, String.class, String.class)
                .hset(RedisKeys.redriveTask(deadLetters, taskId), fields).replaceWithVoid();
    }

    /** The id the stream's running-task pointer names, or null. */
    public Uni<String> running(String deadLetters) {
        return redis.value(String.class, String.class).get(RedisKeys.redriveRunning(deadLetters));
    }

    /** The ids of the stream's tasks, oldest first. */
    public Uni<List<String>> ids(String deadLetters) {
        return redis.sortedSet(String.class).zrange(RedisKeys.redriveTasks(deadLetters), 0, -1);
    }

    /** What redrive-step.lua listed of the task's canary: {@code "<origin stream> <new entry id>"} each. */
    public Uni<List<String>> canary(String deadLetters, String taskId) {
        return redis.list(String.class).lrange(RedisKeys.redriveCanary(deadLetters, taskId), 0, -1);
    }

    /** Every field of a proposal's hash; empty when there is no such proposal (never made, or expired). */
    public Uni<Map<String, String>> proposal(String deadLetters, String proposalId) {
        return redis.hash(String.class, String.class, String.class)
                .hgetall(RedisKeys.proposal(deadLetters, proposalId));
    }

    /**
     * Up to {@code count} ids of the stream's proposals that wait for a decision at {@code now}
     * (epoch ms; undecided and unexpired), soonest to expire first: one range read, at any number
     * of proposals.
     */
    public Uni<List<String>> waitingProposalIds(String deadLetters, long now, int count) {
        return redis.sortedSet(String.class).zrangebyscore(RedisKeys.waitingProposals(deadLetters),
                new ScoreRange<>((double) now, false, Double.POSITIVE_INFINITY, true), new ZRangeArgs().limit(0, count));
    }

    /** Up to {@code count} proposal ids of the stream, newest first, from the {@code offset}th on. */
    public Uni<List<String>> proposalIds(String deadLetters, long offset, int count) {
        return redis.sortedSet(String.class).zrange(RedisKeys.proposals(deadLetters), offset, offset + count - 1,
                new ZRangeArgs().rev());
    }
}
