package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.FreezingProxy;
import dev.redrive.testing.FreezingProxyResource;
import dev.redrive.testing.RawRedis;
import dev.redrive.testing.TestConfig;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
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
@WithTestResource(FreezingProxyResource.class)
@TestProfile(FrozenConnectionTest.Profile.class)
class FrozenConnectionTest {

    static final String STREAM = "frz";
    static final Duration BOUND = Duration.ofSeconds(60);

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return TestConfig.empty().queue(STREAM).handler("noop").set("block", "1s")
                    // a job whose ack was lost with a frozen connection runs again after this
                    .set("visibility-timeout", "3s").and()
                    .set("quarkus.redis.tcp.read-idle-timeout", "4s")
                    .build();
        }
    }

    @Test
    void aQueueWhoseConnectionsFreezeWorksOnOverNewOnes() throws Exception {
        FreezingProxy proxy = FreezingProxyResource.proxy();
        try (RawRedis redis = new RawRedis(FreezingProxyResource.server())) {
            Await.until("the group to be in place", BOUND, () -> groups(redis) == 1);
            add(redis, 20);
            Await.until("the first 20 jobs to be done", BOUND, () -> done(redis, 20));

            int frozen = proxy.freeze();
            assertTrue(frozen > 0, "the service had connections open");
            add(redis, 20);
            Await.until("every job, the 20 added after the freeze too, to be read and acked", BOUND,
                    () -> done(redis, 40));
            Await.until("the frozen connections to be given up", BOUND, () -> proxy.frozenOpen() == 0);
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
