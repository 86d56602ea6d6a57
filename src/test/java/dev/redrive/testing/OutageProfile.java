package dev.redrive.testing;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The boot whose Redis a test freezes, fills and stops (RedisOutageTest, through
 * {@link RedisResource#server()}): short Redis limits, so every wait for an outage to show or to
 * pass is seconds, not the production minutes.
 */
public class OutageProfile implements QuarkusTestProfile {

    /** Where its dead letters would be replayed to: no worker reads it. */
    public static final String TARGET = "{jobs}back";

    @Override
    public Map<String, String> getConfigOverrides() {
        return TestConfig.withApiUsers().queue("jobs").and()
                .set("redrive.replay.allowed-streams", TARGET)
                .set("redrive.redis-timeout", "2s")
                // Enough reads in flight that a freeze makes the pool grow (the read limit would answer 503 busy first).
                .set("redrive.reads.concurrent", "32")
                // The pool gives back what a freeze made it grow to within seconds (30s and a 10s cleaner in production).
                .set("quarkus.redis.pool-recycle-timeout", "2s")
                .set("quarkus.redis.pool-cleaner-interval", "1s")
                .set("redrive.consumer-name", "outage-worker").build();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisResource.class));
    }
}
