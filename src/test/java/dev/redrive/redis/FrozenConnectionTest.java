package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.FreezingProxy;
import dev.redrive.testing.FrozenProfile;
import dev.redrive.testing.RawRedis;
import dev.redrive.testing.RedisResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.redis.client.Response;

/**
 * A connection to Redis that stops answering without closing (a middlebox lost its state, a
 * half-open TCP connection) must not stop a queue: the calls stuck on it fail once it has read
 * nothing for {@code quarkus.redis.tcp.read-idle-timeout}, the connection is closed, and the queue
 * works on over new ones. Without that limit the ack batcher waits on the first stuck call until
 * TCP itself gives up, and every job read after the freeze stays pending.
 */
@QuarkusTest
@TestProfile(FrozenProfile.class)
class FrozenConnectionTest {

    /** Read straight from the server (the service's own connections are the ones that freeze). */
    static final String STREAM = FrozenProfile.QUEUE;

    @Test
    void aQueueWhoseConnectionsFreezeWorksOnOverNewOnes() throws Exception {
        FreezingProxy proxy = RedisResource.proxy();
        try (RawRedis redis = new RawRedis(RedisResource.server())) {
            Await.until("the group to be in place", () -> groups(redis) == 1);
            add(redis, 20);
            Await.until("the first 20 jobs to be done", () -> done(redis, 20));

            int frozen = proxy.freeze();
            assertTrue(frozen > 0, "the service had connections open");
            add(redis, 20);
            Await.until("every job, the 20 added after the freeze too, to be read and acked",
                    () -> done(redis, 40));
            Await.until("the frozen connections to be given up", () -> proxy.frozenOpen() == 0);
            assertEquals(0, pending(redis));
        }
    }

    static void add(RawRedis redis, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            redis.call("XADD", STREAM, "*", "payload", "{}");
        }
    }

    static int groups(RawRedis redis) {
        try {
            return redis.call("XINFO", "GROUPS", STREAM).size();
        } catch (Exception noStreamYet) {
            return 0;
        }
    }

    /** The group has read n entries and none is pending. */
    static boolean done(RawRedis redis, long n) {
        try {
            Response group = redis.call("XINFO", "GROUPS", STREAM).get(0);
            return group.get("entries-read").toLong() == n && pending(redis) == 0;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static long pending(RawRedis redis) throws Exception {
        return redis.call("XPENDING", STREAM, "redrive").get(0).toLong();
    }
}
