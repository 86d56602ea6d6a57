package dev.redrive.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

class QueueRegistryTest {

    static QueueRegistry registry(Map<String, String> props) {
        return new QueueRegistry(mapped(props), name -> name.equals("known"));
    }

    static RedriveConfig mapped(Map<String, String> props) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withConverter(Duration.class, 200, new io.quarkus.runtime.configuration.DurationConverter())
                .withMapping(RedriveConfig.class)
                .withSources(new PropertiesConfigSource(props, "test", 500))
                .build();
        return config.getConfigMapping(RedriveConfig.class);
    }

    static String failure(Map<String, String> props) {
        return assertThrows(InvalidConfigException.class, () -> registry(props)).getMessage();
    }

    @Test
    void defaultsFollowTheDocumentedRules() {
        QueueSpec q = registry(Map.of("redrive.queues.orders.handler", "known")).queues().get("orders");
        assertEquals("orders", q.stream());
        assertEquals("redrive", q.group());
        assertEquals(5, q.maxAttempts());
        assertEquals(Duration.ofSeconds(1), q.backoff().initial());
        assertEquals(Duration.ofMinutes(5), q.backoff().max());
        assertEquals("{orders}:dlq", q.deadLetters());
        assertEquals(16, q.concurrency());
        assertTrue(q.proposeAfterOutage());
    }

    @Test
    void maxRetryAfterDefaultsToAnHourAndIsBoundedByAWeek() {
        assertEquals(Duration.ofHours(1),
                registry(Map.of("redrive.queues.orders.handler", "known")).queues().get("orders").maxRetryAfter());
        assertEquals(Duration.ZERO, registry(Map.of("redrive.queues.orders.handler", "known",
                "redrive.queues.orders.max-retry-after", "0s")).queues().get("orders").maxRetryAfter());
        String message = failure(Map.of("redrive.queues.orders.handler", "known",
                "redrive.queues.orders.max-retry-after", "8d"));
        assertTrue(message.contains("redrive.queues.orders.max-retry-after"), message);
    }

    @Test
    void explicitValuesWin() {
        QueueSpec q = registry(Map.of("redrive.queues.orders.handler", "http",
                "redrive.queues.orders.http.url", "http://svc:8080/jobs",
                "redrive.queues.orders.stream", "{shop}orders",
                "redrive.queues.orders.attempts", "2",
                "redrive.queues.orders.backoff", "250ms",
                "redrive.queues.orders.dlq", "dead-letters")).queues().get("orders");
        assertEquals("{shop}orders", q.stream());
        assertEquals(2, q.maxAttempts());
        assertEquals(Duration.ofMillis(250), q.backoff().initial());
        assertEquals("dead-letters", q.deadLetters());
        assertEquals("http://svc:8080/jobs", q.httpUrl().toString());
    }

    @Test
    void badValuesNameTheirProperty() {
        Map<String, String> base = new HashMap<>(Map.of("redrive.queues.q.handler", "known"));
        Map<String, String> attempts = new HashMap<>(base);
        attempts.put("redrive.queues.q.attempts", "0");
        assertEquals("Invalid configuration: redrive.queues.q.attempts must be at least 1 (got 0; it defaults to JOB_ATTEMPTS)",
                failure(attempts));
        Map<String, String> backoff = new HashMap<>(base);
        backoff.put("redrive.queues.q.backoff", "-5ms");
        assertEquals("Invalid configuration: redrive.queues.q.backoff must not be negative (got PT-0.005S; it defaults to RETRY_BACKOFF_MS)",
                failure(backoff));
        assertEquals("Invalid configuration: redrive.queues.q.handler names no handler: 'nope' is neither 'http' nor the "
                + "@Identifier of a JobHandler or BlockingJobHandler bean",
                failure(Map.of("redrive.queues.q.handler", "nope")));
        assertEquals("Invalid configuration: redrive.queues.q.http.url is required when handler=http",
                failure(Map.of("redrive.queues.q.handler", "http")));
        assertEquals("Invalid configuration: redrive.queues.q.http.url must be an absolute http(s) URL (got 'ftp://x')",
                failure(Map.of("redrive.queues.q.handler", "http", "redrive.queues.q.http.url", "ftp://x")));
        assertEquals("Invalid configuration: redrive.redis-timeout must be positive (got PT0S)",
                failure(Map.of("redrive.queues.q.handler", "known", "redrive.redis-timeout", "0s")));
        assertEquals("Invalid configuration: redrive.gauge-interval must be positive (got PT-1S)",
                failure(Map.of("redrive.queues.q.handler", "known", "redrive.gauge-interval", "-1s")));
    }

    /** Past the top of its range a duration overflows millisecond sums on every tick: refused, named. */
    @ParameterizedTest
    @CsvSource({ "redrive.queues.q.backoff, 999999999999d, 'must be between PT0S and PT168H (got PT23999999999976H)'",
            "redrive.queues.q.max-backoff, 999999999999d, 'must be between PT0S and PT168H (got PT23999999999976H)'",
            "redrive.queues.q.visibility-timeout, 999999999999d, 'must be between PT0.3S and PT168H (got PT23999999999976H)'",
            "redrive.queues.q.attempts, 1000000, 'must be between 1 and 1000 (got 1000000)'",
            "redrive.queues.q.http.timeout, 2h, 'must be between PT0.001S and PT1H (got PT2H)'",
            "redrive.replay.redrive-retention, 999999999999d, 'must be between PT1M and PT8760H (got PT23999999999976H)'",
            "redrive.watch.w.interval, 2h, 'must be between PT0.001S and PT1H (got PT2H)'",
            "redrive.tracing.drop-warning-interval, 0s, 'must be between PT1S and PT1H (got PT0S)'",
            "redrive.tracing.drop-warning-interval, 999999999999d, 'must be between PT1S and PT1H (got PT23999999999976H)'",
            "redrive.agents.read-audit-records, 10, 'must be between 100 and 10000000 (got 10)'" })
    void aValuePastItsRangeIsRefusedNamingItsProperty(String property, String value, String message) {
        Map<String, String> props = new HashMap<>(Map.of("redrive.queues.q.handler", "known",
                "redrive.watch.w.group", "theirs"));
        props.put(property, value);
        assertEquals("Invalid configuration: " + property + " " + message, failure(props));
    }

    @Test
    void theTopOfTheRangesStartsAndItsBackoffIsComputed() {
        QueueSpec q = registry(Map.of("redrive.queues.q.handler", "known", "redrive.queues.q.backoff", "7d",
                "redrive.queues.q.max-backoff", "7d", "redrive.queues.q.attempts", "1000")).queues().get("q");
        assertEquals(Duration.ofDays(7).multipliedBy(8).dividedBy(10), q.backoff().shortest());
        assertTrue(q.backoff().delayBefore(1000, 7).compareTo(Duration.ofDays(7)) <= 0);
    }

    @Test
    void onAClusterADeadLetterStreamInAnotherSlotStopsStartUp() {
        Map<String, String> shared = Map.of("redrive.queues.orders.handler", "known", "redrive.queues.orders.dlq", "dead-letters");
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withConverter(Duration.class, 200, new io.quarkus.runtime.configuration.DurationConverter())
                .withMapping(RedriveConfig.class)
                .withSources(new PropertiesConfigSource(shared, "test", 500))
                .build();
        RedriveConfig mapped = config.getConfigMapping(RedriveConfig.class);
        assertEquals("dead-letters", new QueueRegistry(mapped, n -> true, false).queues().get("orders").deadLetters(),
                "a single Redis takes a shared dead-letter stream");
        String message = assertThrows(InvalidConfigException.class, () -> new QueueRegistry(mapped, n -> true, true))
                .getMessage();
        assertEquals("Invalid configuration: redrive.queues.orders.dlq is 'dead-letters' (or DLQ_NAME), in another Redis "
                + "Cluster hash slot than stream 'orders': parking would need two scripts; on a cluster leave DLQ_NAME "
                + "empty so each stream parks into {orders}:dlq, or give the stream and the dead-letter stream the same "
                + "{hash tag}", message);
    }

    @Test
    void waitReplicasIsRefusedOnAClusterAndMustWaitLessThanTheRequestMay() {
        assertEquals("Invalid configuration: redrive.redis.wait-timeout must be shorter than redrive.redis-timeout (PT5S), "
                + "which bounds the whole request (got PT5S)",
                failure(Map.of("redrive.redis.wait-replicas", "1", "redrive.redis.wait-timeout", "5s")));
        assertEquals("Invalid configuration: redrive.redis.wait-replicas must be between 0 and 100 (got -1)",
                failure(Map.of("redrive.redis.wait-replicas", "-1")));
        RedriveConfig mapped = mapped(Map.of("redrive.redis.wait-replicas", "1"));
        String message = assertThrows(InvalidConfigException.class, () -> new QueueRegistry(mapped, n -> true, true)).getMessage();
        assertEquals("Invalid configuration: redrive.redis.wait-replicas is not supported on Redis Cluster (got 1): the "
                + "WAIT would not reach the node that ran the write; set it to 0", message);
    }
}
