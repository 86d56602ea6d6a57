package dev.redrive.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;

/**
 * How deploy/k8s is watched, in every overlay rendered by {@code kubectl kustomize}: the
 * ServiceMonitor scrapes the management port, the alert rules ship, and the dashboard and the
 * alerts ask only for metrics redrive exports.
 */
class MonitoringManifestsTest {

    static Map<String, Manifests> rendered;

    @BeforeAll
    static void render() {
        rendered = Manifests.overlays();
    }

    @Test
    void serviceMonitorScrapesTheManagementPortAndRulesAreShipped() {
        rendered.forEach((overlay, m) -> {
            ServiceMonitor sm = m.one(ServiceMonitor.class, "redrive");
            assertEquals(1, sm.getSpec().getEndpoints().size(), overlay);
            assertEquals("management", sm.getSpec().getEndpoints().get(0).getPort(), overlay + ": ServiceMonitor port");
            assertEquals("/q/metrics", sm.getSpec().getEndpoints().get(0).getPath(), overlay + ": ServiceMonitor path");
            Service s = m.one(Service.class, "redrive");
            assertTrue(s.getMetadata().getLabels().entrySet().containsAll(sm.getSpec().getSelector().getMatchLabels().entrySet()),
                    overlay + ": ServiceMonitor selects the Service");
            // The alerts select job="redrive": the job label comes from the Service's jobLabel.
            assertEquals("redrive", s.getMetadata().getLabels().get(sm.getSpec().getJobLabel()), overlay + ": job label");

            PrometheusRule rule = m.one(PrometheusRule.class, "redrive");
            assertEquals(AlertRules.typed().getSpec().getGroups().size(), rule.getSpec().getGroups().size(), overlay);
        });
    }

    @Test
    void dashboardShipsAsAGrafanaConfigMapAndUsesOnlyRedriveMetrics() throws Exception {
        rendered.forEach((overlay, m) -> {
            ConfigMap cm = m.one(ConfigMap.class, "redrive-dashboard");
            assertEquals("1", cm.getMetadata().getLabels().get("grafana_dashboard"), overlay + ": sidecar label");
            assertEquals(1, cm.getData().size(), overlay);
            String json = cm.getData().values().iterator().next();
            JsonNode dashboard;
            try {
                dashboard = new ObjectMapper().readTree(json);
            } catch (Exception e) {
                throw new AssertionError(overlay + ": dashboard JSON does not parse", e);
            }
            assertEquals("redrive", dashboard.path("uid").asText());

            Set<String> used = MetricNames.referencedIn(json);
            Set<String> unknown = new HashSet<>(used);
            unknown.removeAll(MetricNames.ALL);
            assertEquals(Set.of(), unknown, overlay + ": dashboard uses metrics redrive does not export");
            assertTrue(used.containsAll(Set.of("redrive_jobs_completed_total", "redrive_attempts_failed_total",
                    "redrive_dlq_depth", "redrive_dlq_replayed_total")),
                    overlay + ": throughput, failures by kind, dead-letter depth and replay activity: " + used);
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    assertFalse(target.path("expr").asText().isBlank(), overlay + ": panel " + panel.path("title") + " has an empty query");
                }
            }
        });
    }

    @Test
    void alertsUseOnlyRedriveMetrics() {
        Set<String> used = new HashSet<>();
        AlertRules.alerts().forEach(r -> used.addAll(MetricNames.referencedIn(r.getExpr().getStrVal())));
        used.removeAll(MetricNames.ALL);
        assertEquals(Set.of(), used, "alerts use metrics redrive does not export");
    }
}
