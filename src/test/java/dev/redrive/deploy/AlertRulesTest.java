package dev.redrive.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.fabric8.openshift.api.model.monitoring.v1.Rule;

/**
 * The alerts in deploy/k8s/base/prometheusrule.yaml: well-formed for Prometheus (promtool check
 * rules), behaving as intended on synthetic series (promtool test rules with
 * deploy/prometheus/alerts-test.yaml), and each one documented in RUNBOOK.md.
 */
class AlertRulesTest {

    static final Set<String> QUEUE_ALERTS = Set.of("RedriveDeadLetterNotEmpty", "RedriveDeadLetterGrowing",
            "RedriveQueueLagHigh", "RedriveOldestPendingTooOld", "RedriveQueuePaused", "RedriveNoConsumers",
            "RedriveJobsNotParked");

    static Path dir;

    @BeforeAll
    static void extractRules() throws IOException {
        dir = Files.createTempDirectory("redrive-rules-");
        AlertRules.writeRulesFile(dir, d -> d);
        Files.copy(AlertRules.PROMTOOL_TESTS, dir.resolve("alerts-test.yaml"));
    }

    @AfterAll
    static void cleanUp() {
        Tools.deleteTree(dir);
    }

    @Test
    void rulesPassPromtoolCheck() {
        Path promtool = promtool();
        Tools.Result r = Tools.run(dir, 60, List.of(promtool.toString(), "check", "rules", AlertRules.RULES_FILE));
        assertTrue(r.ok(), "promtool check rules failed:\n" + r.output());
    }

    @Test
    void alertsFireAndStayQuietOnSyntheticSeries() {
        Path promtool = promtool();
        Tools.Result r = Tools.run(dir, 60, List.of(promtool.toString(), "test", "rules", "alerts-test.yaml"));
        assertTrue(r.ok(), "promtool test rules failed:\n" + r.output());
    }

    @Test
    void everyAlertIsShownFiringAndQuietInThePromtoolTests() throws IOException {
        JsonNode tests = new YAMLMapper().readTree(AlertRules.PROMTOOL_TESTS.toFile()).path("tests");
        Set<String> firing = new HashSet<>();
        Set<String> quiet = new HashSet<>();
        for (JsonNode test : tests) {
            for (JsonNode c : test.path("alert_rule_test")) {
                String name = c.path("alertname").asText();
                (c.path("exp_alerts").isEmpty() ? quiet : firing).add(name);
            }
        }
        for (Rule alert : AlertRules.alerts()) {
            assertTrue(firing.contains(alert.getAlert()), alert.getAlert() + " is never shown firing in " + AlertRules.PROMTOOL_TESTS);
            assertTrue(quiet.contains(alert.getAlert()), alert.getAlert() + " is never shown quiet in " + AlertRules.PROMTOOL_TESTS);
        }
    }

    @Test
    void everyAlertHasSeveritySummaryDescriptionAndRunbook() {
        List<Rule> alerts = AlertRules.alerts();
        assertTrue(alerts.size() >= 7, "expected the issue's alerts, found " + alerts.size());
        for (Rule alert : alerts) {
            String name = alert.getAlert();
            Map<String, String> a = alert.getAnnotations();
            assertTrue(Set.of("warning", "critical").contains(alert.getLabels().get("severity")), name + ": severity");
            assertFalse(a.getOrDefault("summary", "").isBlank(), name + ": summary");
            assertFalse(a.getOrDefault("description", "").isBlank(), name + ": description");
            assertEquals("RUNBOOK.md#" + name.toLowerCase(java.util.Locale.ROOT), a.get("runbook_url"), name + ": runbook_url");
            if (QUEUE_ALERTS.contains(name)) {
                assertTrue(a.get("description").contains("{{ $labels.queue }}"), name + ": the description names the queue");
                assertTrue(alert.getExpr().getStrVal().contains("queue"), name + ": keeps the queue label");
            }
        }
        Set<String> names = new TreeSet<>();
        alerts.forEach(r -> names.add(r.getAlert()));
        assertTrue(names.containsAll(QUEUE_ALERTS), "missing queue alerts: " + names);
        assertTrue(names.contains("RedriveDown"), "missing RedriveDown: " + names);
    }

    /** A dead-letter alert links to the console's causes of its stream, next to its runbook section. */
    @Test
    void deadLetterAlertsLinkToTheConsole() {
        List<Rule> deadLetters = AlertRules.alerts().stream().filter(r -> r.getAlert().startsWith("RedriveDeadLetter")).toList();
        assertEquals(2, deadLetters.size(), "RedriveDeadLetterNotEmpty and RedriveDeadLetterGrowing");
        for (Rule alert : deadLetters) {
            String url = alert.getAnnotations().getOrDefault("console_url", "");
            assertTrue(url.matches("https://[^/]+/console/dlq/\\{\\{ \\$labels\\.dlq \\| urlquery }}/causes"),
                    alert.getAlert() + ": console_url " + url);
        }
    }

    /** A waiting proposal links to the console's list of its stream's proposals, where it is approved or rejected. */
    @Test
    void aWaitingProposalLinksToItsStreamsProposalsInTheConsole() {
        Rule alert = AlertRules.alerts().stream().filter(r -> r.getAlert().equals("RedriveProposalWaiting")).findFirst()
                .orElseThrow(() -> new AssertionError("no RedriveProposalWaiting in " + AlertRules.SOURCE));
        String url = alert.getAnnotations().getOrDefault("console_url", "");
        assertTrue(url.matches("https://[^/]+/console/dlq/\\{\\{ \\$labels\\.dlq \\| urlquery }}/proposals"), "console_url " + url);
        assertEquals("30m", alert.getFor(), "the wait README and RUNBOOK document");
        assertTrue(alert.getExpr().getStrVal().contains("dlq"), "keeps the stream's label");
    }

    @Test
    void retriesAloneNeverAlert() {
        for (Rule alert : AlertRules.alerts()) {
            assertFalse(alert.getExpr().getStrVal().contains("redrive_attempts_failed_total"),
                    alert.getAlert() + " alerts on failed attempts: retries are the normal path, alert on their outcome");
        }
    }

    @Test
    void everyRunbookUrlPointsAtARunbookSection() {
        Set<String> anchors = Runbook.anchors();
        for (Rule alert : AlertRules.alerts()) {
            String url = alert.getAnnotations().get("runbook_url");
            String anchor = url.substring(url.indexOf('#') + 1);
            assertTrue(anchors.contains(anchor), alert.getAlert() + ": RUNBOOK.md has no heading for #" + anchor
                    + " (anchors: " + anchors + ")");
        }
    }

    @Test
    void anchorsFollowGithubRules() {
        assertEquals(List.of("redrivedeadletternotempty", "draining-and-rolling-deploys", "the-dead-letter-record",
                "why-replay-is-manual", "why-replay-is-manual-1"),
                List.copyOf(Runbook.anchors("## RedriveDeadLetterNotEmpty\n## Draining and rolling deploys\n"
                        + "```\n# not a heading\n```\n### The dead-letter record\n## Why replay is manual?\n## Why replay is manual\n")));
    }

    @Test
    void everyRunbookLinkInTheManifestsAndRunbookResolves() throws IOException {
        Set<String> anchors = Runbook.anchors();
        java.util.regex.Pattern link = java.util.regex.Pattern.compile("RUNBOOK\\.md#([a-z0-9_-]+)|\\]\\(#([a-z0-9_-]+)\\)");
        List<Path> files;
        try (var walk = Files.walk(Tools.ROOT.resolve("deploy"))) {
            files = new java.util.ArrayList<>(walk.filter(Files::isRegularFile).toList());
        }
        files.add(Runbook.FILE);
        for (Path file : files) {
            var m = link.matcher(Files.readString(file));
            while (m.find()) {
                String anchor = m.group(1) != null ? m.group(1) : m.group(2);
                assertTrue(anchors.contains(anchor), Tools.ROOT.relativize(file) + " links to RUNBOOK.md#" + anchor
                        + ", which has no heading");
            }
        }
    }

    private static Path promtool() {
        var p = Tools.find("promtool");
        assumeTrue(p.isPresent(), Tools.missing("promtool", "prometheus"));
        return p.get();
    }
}
