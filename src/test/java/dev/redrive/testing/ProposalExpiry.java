package dev.redrive.testing;

import java.util.List;

import dev.redrive.redis.RedisKeys;
import io.quarkus.redis.datasource.RedisDataSource;

/**
 * Proposals whose time has run out on Redis' clock, the one the service decides expiry by
 * (lib/clock.lua), as waiting out redrive.proposals.ttl would: their expiry is set to Redis' now,
 * in the hash and in the stream's waiting set alike. A test's own clock can't do it: no process's
 * clock decides a proposal's expiry.
 */
public final class ProposalExpiry {

    private ProposalExpiry() {
    }

    public static void expire(RedisDataSource redis, String dlq, List<String> ids) {
        var time = redis.execute("TIME");
        long now = time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
        for (String id : ids) {
            redis.hash(String.class).hset(RedisKeys.proposal(dlq, id), "expires-at", Long.toString(now));
            redis.sortedSet(String.class).zadd(RedisKeys.waitingProposals(dlq), now, id);
        }
    }

    /** Every proposal of the stream that waits now. */
    public static void expireAllWaiting(RedisDataSource redis, String dlq) {
        expire(redis, dlq, redis.sortedSet(String.class).zrange(RedisKeys.waitingProposals(dlq), 0, -1));
    }
}
