package dev.redrive.testing;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * One Quarkus boot for the worker tests: the job lifecycle (queue jobs), stall recovery (queue
 * stalls), trimming producers (queues trims and trimsnow) and the maxReceiveCount watch (streams legacy and images, whose consumers redrive does
 * not run). Each class uses only its own streams, so they share the service and its Redis.
 */
public class WorkerProfile implements QuarkusTestProfile {

    /** The consumer name of this boot's workers. */
    public static final String CONSUMER = "test-worker";

    @Override
    public Map<String, String> getConfigOverrides() {
        TestConfig c = TestConfig.empty()
                .queue("jobs").attempts(3).backoff("200ms").set("jitter", "0.2").set("concurrency", "8").retryPoll("20ms").and()
                // The safety-net poll as good as off: only the process's own timers can find a due retry.
                .queue("timed").attempts(2).backoff("100ms").set("jitter", "0").set("concurrency", "4").retryPoll("1h").and()
                .queue("atonce").attempts(3).backoff("0ms").set("jitter", "0").retryPoll("1h").and()
                // Room for eight batches: reads are pipelined (PipelinedReadsTest).
                .queue("pipelined").set("concurrency", "40").set("batch", "5").and()
                .queue("stalls").attempts(3).backoff("50ms").set("visibility-timeout", "600ms").retryPoll("20ms").and()
                // Producers trim these (TrimmedJobsTest): a short lease, so heartbeats renew slow jobs
                // while they run; one hands failed jobs over, the other retries them at once.
                .queue("trims").attempts(3).backoff("100ms").set("jitter", "0").set("visibility-timeout", "900ms")
                .retryPoll("20ms").and()
                .queue("trimsnow").attempts(3).backoff("0ms").set("jitter", "0").set("visibility-timeout", "900ms")
                .retryPoll("20ms").and()
                .set("redrive.consumer-name", CONSUMER);
        watch(c, "legacy", "legacy", "node-workers", 2);
        watch(c, "thumbs", "images", "php-workers", 1);
        return c.build();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisResource.class));
    }

    private static void watch(TestConfig c, String name, String stream, String group, int maxReceiveCount) {
        String p = "redrive.watch." + name + ".";
        c.set(p + "stream", stream).set(p + "group", group).set(p + "max-receive-count", Integer.toString(maxReceiveCount))
                .set(p + "interval", "50ms");
    }
}
