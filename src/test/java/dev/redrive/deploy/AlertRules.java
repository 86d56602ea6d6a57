package dev.redrive.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.Rule;

/**
 * The alerts' one source of truth, deploy/k8s/base/prometheusrule.yaml, read two ways: typed (the
 * Prometheus Operator's model) for assertions, and as the plain rules file promtool and
 * prometheus load, made from the PrometheusRule's {@code spec.groups} as written.
 */
final class AlertRules {

    static final Path SOURCE = Tools.ROOT.resolve("deploy/k8s/base/prometheusrule.yaml");
    static final Path PROMTOOL_TESTS = Tools.ROOT.resolve("deploy/prometheus/alerts-test.yaml");
    /** The name deploy/prometheus/alerts-test.yaml expects beside it. */
    static final String RULES_FILE = "redrive-rules.yaml";

    private static final YAMLMapper YAML = new YAMLMapper();

    private AlertRules() {
    }

    static PrometheusRule typed() {
        try {
            return new KubernetesSerialization().unmarshal(Files.readString(SOURCE), PrometheusRule.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Rule> alerts() {
        List<Rule> alerts = new ArrayList<>();
        typed().getSpec().getGroups().forEach(g -> g.getRules().stream().filter(r -> r.getAlert() != null)
                .forEach(alerts::add));
        return alerts;
    }

    /** Writes {@code spec.groups} as a plain rules file, with every {@code for:} mapped by {@code forDuration}. */
    static Path writeRulesFile(Path dir, UnaryOperator<String> forDuration) {
        try {
            JsonNode groups = YAML.readTree(SOURCE.toFile()).path("spec").path("groups");
            if (!groups.isArray() || groups.isEmpty()) {
                throw new AssertionError(SOURCE + " has no spec.groups");
            }
            for (JsonNode group : groups) {
                for (JsonNode rule : group.path("rules")) {
                    if (rule.has("for")) {
                        ((ObjectNode) rule).put("for", forDuration.apply(rule.get("for").asText()));
                    }
                }
            }
            ObjectNode file = YAML.createObjectNode();
            file.set("groups", groups);
            Path target = dir.resolve(RULES_FILE);
            YAML.writeValue(target.toFile(), file);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
