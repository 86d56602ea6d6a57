package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/** Bad configuration stops start-up with one message that names the property. */
class BadConfigIT {

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "redrive.queues.q.attempts|0|redrive.queues.q.attempts must be at least 1",
            "redrive.queues.q.backoff|-1ms|redrive.queues.q.backoff must not be negative",
            "redrive.queues.q.handler|nosuchbean|redrive.queues.q.handler names no handler",
            "redrive.queues.q.handler|http|redrive.queues.q.http.url is required when handler=http",
            // redrive's own proposals are made under this name: no person may log in as it (api/ReservedNames).
            "quarkus.security.users.embedded.users.Redrive|00|Invalid configuration: quarkus.security.users.embedded.users.Redrive names a user",
            // Quarkus' own tracing settings: before, with tracing on, "ArithmeticException: long overflow"
            // (the SDK's nanoseconds) or "no larger power of 2 int" (its queue), and nothing with it off.
            "quarkus.otel.bsp.export.timeout|999999999d|quarkus.otel.bsp.export.timeout must be between PT0S and PT1H (got 999999999d)",
            "quarkus.otel.bsp.schedule.delay|-1s|quarkus.otel.bsp.schedule.delay must be between PT0S and PT1H (got -1s)",
            "quarkus.otel.bsp.max.queue.size|2000000000|quarkus.otel.bsp.max.queue.size must be between 1 and 1048576 (got 2000000000)",
    })
    void startUpStopsWithAMessageNamingTheProperty(String property, String value, String message) {
        try (RedisServer redis = new RedisServer().start()) {
            Map<String, String> config = new java.util.HashMap<>(Map.of("quarkus.redis.hosts", redis.url(),
                    "redrive.queues.q.handler", "demo"));
            config.put(property, value);
            try (RedriveProcess p = new RedriveProcess("bad-config", config).start()) {
                int exit = p.awaitExit(Duration.ofSeconds(60));
                assertNotEquals(0, exit);
                assertTrue(p.output().contains(message), "output names the property:\n" + p.output());
            }
        }
    }
}
