package dev.redrive.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.Rule;

/**
 * What production gets from deploy/k8s that the base does not, rendered by {@code kubectl
 * kustomize}: the base's example Secret holds only placeholders and hashes and production ships
 * none; production scales with KEDA's Redis Streams scaler on the Redis and Secret the pods use;
 * every alert's console link points at production's console.
 */
class ProductionManifestsTest {

    static Map<String, Manifests> rendered;

    @BeforeAll
    static void render() {
        rendered = Manifests.overlays();
    }

    @Test
    void exampleSecretHoldsOnlyPlaceholdersAndHashesAndProductionBringsItsOwn() {
        Secret secret = rendered.get("base").one(Secret.class, "redrive-secrets");
        Map<String, String> data = secret.getStringData();
        assertEquals("change-me", data.get("QUARKUS_REDIS_PASSWORD"), "the Redis password is a placeholder");
        assertEquals("false", data.get("QUARKUS_SECURITY_USERS_EMBEDDED_PLAIN_TEXT"), "passwords are stored hashed");
        assertTrue(data.getOrDefault("QUARKUS_HTTP_AUTH_SESSION_ENCRYPTION_KEY", "").startsWith("change-me"),
                "the console's session key is a placeholder, shared by every replica");
        var users = data.keySet().stream().filter(k -> k.startsWith("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_")).toList();
        assertFalse(users.isEmpty(), "example operator users");
        for (String key : users) {
            String user = key.substring("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_".length()).toLowerCase();
            assertEquals(sha256Hex(user + ":redrive:change-me"), data.get(key), key + " is the hash of the placeholder password");
            assertTrue(data.containsKey("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_" + user.toUpperCase()), key + " has roles");
        }
        Set<String> roles = new HashSet<>();
        data.entrySet().stream().filter(e -> e.getKey().startsWith("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_"))
                .forEach(e -> roles.addAll(List.of(e.getValue().split(","))));
        assertEquals(Set.of("dlq-viewer", "dlq-operator", "dlq-automation"), roles);

        assertTrue(rendered.get("overlays/production").all(Secret.class).isEmpty(),
                "production must not ship the example Secret");
    }

    private static String sha256Hex(String s) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void productionScalesWithKedaOnTheRedisStreamsScaler() {
        Manifests prod = rendered.get("overlays/production");
        Deployment d = prod.one(Deployment.class, "redrive");
        assertEquals("redrive", d.getMetadata().getNamespace());
        assertFalse(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().endsWith(":latest"), "production pins its image");

        List<GenericKubernetesResource> scaled = prod.generic("ScaledObject");
        assertEquals(1, scaled.size());
        Map<String, Object> spec = (Map<String, Object>) scaled.get(0).getAdditionalProperties().get("spec");
        Map<String, Object> target = (Map<String, Object>) spec.get("scaleTargetRef");
        assertEquals("Deployment", target.get("kind"));
        assertEquals("redrive", target.get("name"));
        assertEquals(2, ((Number) spec.get("minReplicaCount")).intValue(), "KEDA keeps the two replicas the PDB counts on");
        Set<String> measures = new HashSet<>();
        String redisHost = prod.one(ConfigMap.class, "redrive-config").getData().get("REDIS_URL")
                .replaceFirst("^redis://", "").replaceFirst("/.*$", "");
        for (Map<String, Object> trigger : (List<Map<String, Object>>) spec.get("triggers")) {
            assertEquals("redis-streams", trigger.get("type"));
            Map<String, Object> md = (Map<String, Object>) trigger.get("metadata");
            assertEquals(redisHost, md.get("address"), "KEDA reads the Redis the pods use");
            md.keySet().stream().filter(k -> k.equals("pendingEntriesCount") || k.equals("lagCount")).forEach(measures::add);
            String auth = (String) ((Map<String, Object>) trigger.get("authenticationRef")).get("name");
            assertEquals(1, prod.generic("TriggerAuthentication").stream().filter(t -> t.getMetadata().getName().equals(auth)).count());
        }
        assertEquals(Set.of("pendingEntriesCount", "lagCount"), measures);

        GenericKubernetesResource auth = prod.generic("TriggerAuthentication").get(0);
        var refs = (List<Map<String, Object>>) ((Map<String, Object>) auth.getAdditionalProperties().get("spec")).get("secretTargetRef");
        Secret example = rendered.get("base").one(Secret.class, "redrive-secrets");
        refs.forEach(r -> {
            assertEquals("redrive-secrets", r.get("name"));
            assertTrue(example.getStringData().containsKey((String) r.get("key")), "the Secret has key " + r.get("key"));
        });
    }

    /**
     * The overlay sets the console's address of each alert by the rule's index (a JSON patch): a
     * rule added or moved in the base must not leave one alert linking to the example address.
     */
    @Test
    void everyConsoleLinkOfProductionsAlertsPointsAtItsConsole() {
        List<Rule> base = rules("base");
        List<Rule> prod = rules("overlays/production");
        assertEquals(base.size(), prod.size());
        int linked = 0;
        for (int i = 0; i < base.size(); i++) {
            String example = base.get(i).getAnnotations() == null ? null : base.get(i).getAnnotations().get("console_url");
            if (example == null) {
                continue;
            }
            linked++;
            String url = prod.get(i).getAnnotations().get("console_url");
            assertEquals(example.replace("https://redrive.example.com/", "https://redrive.internal.example.com/"), url,
                    prod.get(i).getAlert() + ": production's console, the base's page");
        }
        assertTrue(linked >= 2, "the dead-letter alerts link to the console");
    }

    private static List<Rule> rules(String overlay) {
        return rendered.get(overlay).one(PrometheusRule.class, "redrive").getSpec().getGroups().stream()
                .flatMap(g -> g.getRules().stream()).toList();
    }
}
