package dev.redrive.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URL;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScrapeProfile;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The alerts against the real thing: a private Prometheus scrapes this running redrive's
 * management port, evaluates the PrometheusRule's own groups (their {@code for:} shortened to 1s),
 * and raises the dead-letter alerts once poison jobs are parked.
 */
@QuarkusTest
@TestProfile(ScrapeProfile.class)
class PrometheusScrapeTest {

    private static final Logger LOG = Logger.getLogger(PrometheusScrapeTest.class);

    static final int POISON_JOBS = 25;
    /** Exported by the dead-letter API, not by the worker this test runs. */
    static final Set<String> API_METRICS = Set.of("redrive_dlq_replayed_total", "redrive_dlq_discarded_total");

    @TestHTTPResource(value = "/q/metrics", management = true)
    URL metrics;

    @Inject
    @Own("poison")
    TestQueue poison;

    @Test
    void prometheusScrapesRedriveAndRaisesTheDeadLetterAlerts() {
        Optional<Path> binary = Tools.find("prometheus");
        assumeTrue(binary.isPresent(), Tools.missing("prometheus", "prometheus"));
        String target = metrics.getHost() + ":" + metrics.getPort();

        try (PrometheusServer prometheus = new PrometheusServer(binary.get(), target,
                dir -> AlertRules.writeRulesFile(dir, forDuration -> "1s"))) {
            Await.until("prometheus to scrape redrive at " + target + prometheus.log(),
                    () -> paced(() -> value(prometheus.query("up{job=\"redrive\"}")).filter(v -> v == 1).isPresent()));
            // The depth must be seen at 0 first: RedriveDeadLetterGrowing is a delta() of it.
            Await.until("redrive_dlq_depth of queue poison at 0 in prometheus",
                    () -> paced(() -> value(prometheus.query("redrive_dlq_depth{queue=\"poison\"}")).filter(v -> v == 0).isPresent()));
            assertTrue(firing(prometheus, "RedriveDeadLetterNotEmpty").isEmpty(), "no dead-letter alert before any job is parked");

            for (int i = 0; i < POISON_JOBS; i++) {
                poison.add(Map.of("kind", "terminal", "job", "poison-" + i, "payload", "{\"doc\":" + i + "}"));
            }
            Await.until(POISON_JOBS + " jobs parked in " + poison.dlq(), () -> paced(() -> poison.deadLetters().size() == POISON_JOBS));

            Set<String> statesSeen = new HashSet<>();
            JsonNode notEmpty = Await.value("RedriveDeadLetterNotEmpty to fire for queue poison" + prometheus.log(), () -> paced(() -> {
                Optional<JsonNode> alert = firing(prometheus, "RedriveDeadLetterNotEmpty");
                alert.ifPresent(a -> statesSeen.add(a.path("state").asText()));
                return alert.filter(a -> a.path("state").asText().equals("firing")).orElse(null);
            }));
            LOG.infof("RedriveDeadLetterNotEmpty went through states %s", statesSeen);
            assertEquals(poison.dlq(), notEmpty.path("labels").path("dlq").asText());
            assertEquals("e2e", notEmpty.path("labels").path("namespace").asText());
            assertEquals("warning", notEmpty.path("labels").path("severity").asText());
            assertEquals("RUNBOOK.md#redrivedeadletternotempty", notEmpty.path("annotations").path("runbook_url").asText());
            assertTrue(notEmpty.path("annotations").path("description").asText().contains("Queue poison has " + POISON_JOBS),
                    notEmpty.path("annotations").toString());

            JsonNode growing = Await.value("RedriveDeadLetterGrowing to fire for queue poison", () -> paced(() ->
                    firing(prometheus, "RedriveDeadLetterGrowing").filter(a -> a.path("state").asText().equals("firing")).orElse(null)));
            assertEquals("critical", growing.path("labels").path("severity").asText());

            // Names in the rules, the dashboard and the list are the ones really scraped.
            List<String> scraped = prometheus.metricNames();
            Set<String> expected = new HashSet<>(MetricNames.ALL);
            expected.removeAll(API_METRICS);
            for (String name : expected) {
                assertTrue(scraped.stream().anyMatch(s -> s.equals(name) || s.startsWith(name + "_")),
                        name + " is not among the scraped metrics " + scraped);
            }
            assertTrue(firing(prometheus, "RedriveDown").isEmpty(), "RedriveDown while redrive is scraped");
        }
    }

    /** The alert of that name for queue poison, pending or firing, if any. */
    private Optional<JsonNode> firing(PrometheusServer prometheus, String name) {
        return prometheus.alerts().stream()
                .filter(a -> a.path("labels").path("alertname").asText().equals(name))
                .filter(a -> !a.path("labels").has("queue") || a.path("labels").path("queue").asText().equals(poison.stream()))
                .findFirst();
    }

    private static Optional<Double> value(JsonNode data) {
        JsonNode result = data.path("result");
        if (!result.isArray() || result.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Double.parseDouble(result.get(0).path("value").get(1).asText()));
    }

    /** Asks at most ten times a second: Prometheus evaluates once a second anyway. */
    private static <T> T paced(java.util.function.Supplier<T> probe) {
        LockSupport.parkNanos(100_000_000L);
        return probe.get();
    }

    private static boolean paced(java.util.function.BooleanSupplier probe) {
        LockSupport.parkNanos(100_000_000L);
        return probe.getAsBoolean();
    }
}
