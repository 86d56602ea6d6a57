package dev.redrive.testing;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * One boot with a real downstream ({@link DownstreamResource}): the HTTP handler's queues (calls,
 * refused, early, spare: HttpHandlerTest; headers: UnsendableJobsTest), a queue whose breaker opens
 * and closes quickly (outage:
 * ProviderOutageTest), two whose outages exhaust jobs, one proposing their redrive and one not
 * (blackout, unproposed: OutageProposalTest) and, on its own streams, the small read limits of LargeValuesApiTest (queue
 * big), which no HTTP queue reads through.
 */
public class HttpProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return TestConfig.withApiUsers()
                .queue("calls").handler("http").attempts(3).backoff("50ms").retryPoll("20ms").set("http.timeout", "2s")
                        .set("http.circuit-breaker.window", "1000").set("max-retry-after", "1s").and()
                .queue("refused").handler("http").attempts(2).backoff("10ms").retryPoll("20ms").and()
                // Three jobs read at once, one call at a time: the last waits for two calls first.
                .queue("early").handler("http").set("http.timeout", "2s").set("concurrency", "3")
                        .set("http.bulkhead", "1").and()
                .queue("spare").handler("http").set("http.timeout", "2s").and()
                // Budget and backoff small, so a job that would burn them is parked within the wait.
                .queue("headers").handler("http").attempts(3).backoff("10ms").retryPoll("20ms").and()
                .queue("outage").handler("http").attempts(3).backoff("100ms").retryPoll("20ms").set("concurrency", "16")
                        .set("http.circuit-breaker.window", "10").set("http.circuit-breaker.failure-ratio", "0.5")
                        // short, so the outage spans many breaker cycles in little time
                        .set("http.circuit-breaker.delay", "200ms").and()
                // Two attempts, and a breaker that opens after the first ten calls if half failed:
                // an outage exhausts a job with each failed probe (OutageProposalTest).
                .queue("blackout").handler("http").attempts(2).backoff("50ms").retryPoll("20ms")
                        .set("http.circuit-breaker.window", "10").set("http.circuit-breaker.failure-ratio", "0.5")
                        .set("http.circuit-breaker.delay", "200ms").and()
                .queue("unproposed").handler("http").attempts(2).backoff("50ms").retryPoll("20ms")
                        .set("http.circuit-breaker.window", "10").set("http.circuit-breaker.failure-ratio", "0.5")
                        .set("http.circuit-breaker.delay", "200ms").set("propose-after-outage", "false").and()
                .queue("big").attempts(1).and()
                // Small, so LargeValuesApiTest's values need not be large: 1000 bytes a value, 4096 an entry, one read at a time.
                .set("redrive.reads.value-bytes", "1000")
                .set("redrive.reads.entry-bytes", "4096")
                .set("redrive.reads.concurrent", "1")
                .build();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisResource.class), new TestResourceEntry(DownstreamResource.class));
    }
}
