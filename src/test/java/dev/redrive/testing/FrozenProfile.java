package dev.redrive.testing;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The boot whose connections stall: the service talks to Redis through a {@link FreezingProxy}
 * (FrozenConnectionTest freezes it, on queue frz) and gives up on a connection that answers nothing
 * for 4s; and one read at a time, with a short stall timeout, for a client that stops taking a
 * download (StalledDownloadTest, queue big, through the API).
 */
public class FrozenProfile implements QuarkusTestProfile {

    /** FrozenConnectionTest's queue, whose jobs a no-op handler runs. */
    public static final String QUEUE = "frz";

    @Override
    public Map<String, String> getConfigOverrides() {
        return TestConfig.withApiUsers()
                .queue(QUEUE).handler("noop").set("block", "1s")
                        // a job whose ack was lost with a frozen connection runs again after this
                        .set("visibility-timeout", "3s").and()
                .set("quarkus.redis.tcp.read-idle-timeout", "4s")
                .queue("big").attempts(1).and()
                .set("redrive.reads.entry-bytes", "65536")
                .set("redrive.reads.concurrent", "1")
                // long enough for StalledDownloadTest's 503s to be asked while the stalled download still waits
                .set("redrive.reads.stall-timeout", "4s").build();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisResource.class, Map.of(RedisResource.PROXY, "freezing")));
    }
}
