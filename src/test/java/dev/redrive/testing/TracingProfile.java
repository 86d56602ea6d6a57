package dev.redrive.testing;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The one Quarkus boot with tracing on (every other boot leaves it off, as production does
 * without an exporter): spans go to an in-memory exporter, each as soon as it ends. Queue
 * {@code traced} runs the scripted handler, queue {@code calls} the HTTP handler against the
 * {@link DownstreamResource}; the API users replay.
 */
public class TracingProfile implements QuarkusTestProfile {

    public static final String CONSUMER = "traced-worker";

    @Override
    public Map<String, String> getConfigOverrides() {
        return TestConfig.withApiUsers()
                .queue("traced").attempts(3).backoff("30ms").set("jitter", "0").retryPoll("20ms").and()
                .queue("calls").handler("http").attempts(2).backoff("30ms").retryPoll("20ms").and()
                .set("redrive.consumer-name", CONSUMER)
                .set("quarkus.otel.sdk.disabled", "false")
                .set("quarkus.otel.simple", "true")
                .build();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisResource.class), new TestResourceEntry(DownstreamResource.class));
    }

    /**
     * Where the spans of the tracing boot go. A bean of every test boot, where it gets nothing:
     * their SDK is off.
     */
    @ApplicationScoped
    public static class Exporter {
        @Produces
        @Singleton
        InMemorySpanExporter spans() {
            return InMemorySpanExporter.create();
        }
    }
}
