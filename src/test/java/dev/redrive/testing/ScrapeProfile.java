package dev.redrive.testing;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The boot a private Prometheus scrapes (PrometheusScrapeTest): its alerts see every queue of the
 * process, so it runs one queue of poison jobs and nothing else, and refreshes its gauges often.
 */
public class ScrapeProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return TestConfig.empty().queue("poison").attempts(3).retryPoll("20ms").and()
                .set("redrive.gauge-interval", "200ms")
                .set("redrive.consumer-name", "scrape-worker").build();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisResource.class));
    }
}
