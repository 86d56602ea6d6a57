package dev.redrive.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.redrive.config.QueueRegistry;
import dev.redrive.config.QueueSpec;
import dev.redrive.config.RedriveConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * deploy/k8s as a cluster would get it: every overlay rendered by {@code kubectl kustomize}, every
 * object read into its typed model, and the settings that keep the workload safe checked on them:
 * the Deployment, its Service and disruption budget, and the ConfigMap a queue binds from.
 * Monitoring is MonitoringManifestsTest's, production's Secret and scaling ProductionManifestsTest's.
 */
class KubernetesManifestsTest {

    static final Set<String> SOURCE_DOCUMENT_ENV = Set.of("JOB_ATTEMPTS", "RETRY_BACKOFF_MS", "DLQ_NAME", "MAX_RECEIVE_COUNT");
    /** Kinds without a fabric8 model; they are checked field by field instead. */
    static final Set<String> UNTYPED_KINDS = Set.of("ScaledObject", "TriggerAuthentication");

    static Map<String, Manifests> rendered;

    @BeforeAll
    static void render() {
        rendered = Manifests.overlays();
    }

    @Test
    void everyObjectParsesIntoItsTypedModelWithoutUnknownFields() {
        rendered.forEach((overlay, m) -> {
            assertFalse(m.objects.isEmpty(), overlay + " renders nothing");
            for (HasMetadata o : m.objects) {
                String what = overlay + ": " + o.getKind() + " " + o.getMetadata().getName();
                if (o instanceof GenericKubernetesResource) {
                    assertTrue(UNTYPED_KINDS.contains(o.getKind()), what + " has no typed model: unknown kind or apiVersion "
                            + o.getApiVersion());
                    continue;
                }
                assertEquals(List.of(), Manifests.unknownFields(o), what + ": fields the model does not know (typos?)");
            }
            Set<String> kinds = m.objects.stream().map(HasMetadata::getKind).collect(Collectors.toSet());
            assertTrue(kinds.containsAll(Set.of("Deployment", "Service", "ConfigMap", "PodDisruptionBudget",
                    "ServiceMonitor", "PrometheusRule")), overlay + " renders " + kinds);
        });
    }

    @Test
    void deploymentProbesTheManagementPortAndRunsLockedDown() {
        rendered.forEach((overlay, m) -> {
            Deployment d = m.one(Deployment.class, "redrive");
            // Two replicas; where KEDA scales, its minReplicaCount (2) holds them instead.
            boolean autoscaled = !m.generic("ScaledObject").isEmpty();
            assertEquals(autoscaled ? null : Integer.valueOf(2), d.getSpec().getReplicas(), overlay + ": replicas");
            PodSpec pod = d.getSpec().getTemplate().getSpec();
            Container c = pod.getContainers().get(0);

            Map<String, Integer> ports = c.getPorts().stream().collect(Collectors.toMap(ContainerPort::getName, ContainerPort::getContainerPort));
            assertEquals(Map.of("http", 8080, "management", 9000), ports, overlay + ": container ports");
            assertProbe(overlay + " startup", c.getStartupProbe(), "/q/health/started");
            assertProbe(overlay + " readiness", c.getReadinessProbe(), "/q/health/ready");
            assertProbe(overlay + " liveness", c.getLivenessProbe(), "/q/health/live");

            assertNotNull(c.getResources().getRequests().get("cpu"), overlay + ": cpu request");
            assertNotNull(c.getResources().getRequests().get("memory"), overlay + ": memory request");
            assertNotNull(c.getResources().getLimits().get("memory"), overlay + ": memory limit");

            assertEquals(Boolean.TRUE, pod.getSecurityContext().getRunAsNonRoot(), overlay + ": pod runAsNonRoot");
            var sc = c.getSecurityContext();
            assertEquals(Boolean.TRUE, sc.getRunAsNonRoot(), overlay + ": runAsNonRoot");
            assertEquals(Boolean.TRUE, sc.getReadOnlyRootFilesystem(), overlay + ": readOnlyRootFilesystem");
            assertEquals(Boolean.FALSE, sc.getAllowPrivilegeEscalation(), overlay + ": allowPrivilegeEscalation");
            assertEquals(List.of("ALL"), sc.getCapabilities().getDrop(), overlay + ": capabilities dropped");
            String tmpVolume = c.getVolumeMounts().stream().filter(v -> v.getMountPath().equals("/tmp")).findFirst()
                    .orElseThrow(() -> new AssertionError(overlay + ": no /tmp mount on a read-only root")).getName();
            assertTrue(pod.getVolumes().stream().anyMatch(v -> v.getName().equals(tmpVolume) && v.getEmptyDir() != null),
                    overlay + ": /tmp is an emptyDir");

            Map<String, EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
            assertTrue(env.containsKey("REDRIVE_SHUTDOWN_TIMEOUT"), overlay + ": REDRIVE_SHUTDOWN_TIMEOUT is set");
            Duration drain = Duration.parse("PT" + env.get("REDRIVE_SHUTDOWN_TIMEOUT").getValue().toUpperCase());
            assertTrue(pod.getTerminationGracePeriodSeconds() > drain.toSeconds(), overlay + ": terminationGracePeriodSeconds "
                    + pod.getTerminationGracePeriodSeconds() + " must exceed the drain timeout " + drain);
            assertEquals("metadata.name", env.get("REDRIVE_CONSUMER_NAME").getValueFrom().getFieldRef().getFieldPath(),
                    overlay + ": each pod is its own consumer");

            Set<String> configMaps = c.getEnvFrom().stream().filter(e -> e.getConfigMapRef() != null)
                    .map(e -> e.getConfigMapRef().getName()).collect(Collectors.toSet());
            Set<String> secrets = c.getEnvFrom().stream().filter(e -> e.getSecretRef() != null)
                    .map(e -> e.getSecretRef().getName()).collect(Collectors.toSet());
            assertEquals(Set.of("redrive-config"), configMaps, overlay + ": envFrom ConfigMap");
            assertEquals(Set.of("redrive-secrets"), secrets, overlay + ": envFrom Secret");
            configMaps.forEach(name -> m.one(ConfigMap.class, name));
        });
    }

    private static void assertProbe(String what, Probe probe, String path) {
        assertNotNull(probe, what + " probe");
        assertEquals(path, probe.getHttpGet().getPath(), what + " path");
        assertEquals("management", probe.getHttpGet().getPort().getStrVal(), what + " port (named management = 9000)");
    }

    @Test
    void serviceExposesHttpAndManagementAndSelectsThePods() {
        rendered.forEach((overlay, m) -> {
            Service s = m.one(Service.class, "redrive");
            Map<String, Integer> ports = s.getSpec().getPorts().stream().collect(Collectors.toMap(ServicePort::getName, ServicePort::getPort));
            assertEquals(Map.of("http", 8080, "management", 9000), ports, overlay + ": service ports");
            s.getSpec().getPorts().forEach(p -> assertEquals(p.getName(), p.getTargetPort().getStrVal(), overlay + ": targetPort"));
            Map<String, String> podLabels = m.one(Deployment.class, "redrive").getSpec().getTemplate().getMetadata().getLabels();
            assertTrue(podLabels.entrySet().containsAll(s.getSpec().getSelector().entrySet()), overlay + ": selector matches pods");

            PodDisruptionBudget pdb = m.one(PodDisruptionBudget.class, "redrive");
            assertEquals(1, pdb.getSpec().getMinAvailable().getIntVal(), overlay + ": PDB keeps one pod");
            assertTrue(podLabels.entrySet().containsAll(pdb.getSpec().getSelector().getMatchLabels().entrySet()), overlay + ": PDB selects pods");
        });
    }

    @Test
    void configMapCarriesTheSourceDocumentSettingsAndAQueueRedriveAccepts() {
        rendered.forEach((overlay, m) -> {
            Map<String, String> data = m.one(ConfigMap.class, "redrive-config").getData();
            assertTrue(data.keySet().containsAll(SOURCE_DOCUMENT_ENV), overlay + ": " + data.keySet());
            assertEquals("false", data.get("REPLAY_AUTOMATION_ENABLED"), overlay + ": replay automation is off by default");

            Map<String, String> env = new HashMap<>(data);
            env.put("REDRIVE_SHUTDOWN_TIMEOUT", "30s");
            env.put("REDRIVE_CONSUMER_NAME", "redrive-7d9f-abcde");
            RedriveConfig config = bind(env);
            QueueRegistry queues = new QueueRegistry(config, handler -> true);
            QueueSpec orders = queues.queues().get("orders");
            assertNotNull(orders, overlay + ": the sample queue binds from REDRIVE_QUEUES_ORDERS_*: " + queues.queues().keySet());
            assertEquals("orders", orders.stream(), overlay);
            assertEquals("redrive", orders.group(), overlay);
            assertTrue(orders.isHttp(), overlay);
            assertEquals(data.get("REDRIVE_QUEUES_ORDERS_HTTP_URL"), orders.httpUrl().toString(), overlay);
            assertEquals(Integer.parseInt(data.get("JOB_ATTEMPTS")), orders.maxAttempts(), overlay + ": JOB_ATTEMPTS feeds the queue");
            assertEquals("{orders}:dlq", orders.deadLetters(), overlay + ": empty DLQ_NAME means one per stream");
            assertEquals(Duration.ofSeconds(30), config.shutdownTimeout(), overlay);
            assertEquals("redrive-7d9f-abcde", config.consumerName().orElseThrow(), overlay);

            // The names are live, not decoration: other values change the queue.
            env.put("JOB_ATTEMPTS", "7");
            env.put("DLQ_NAME", "parked");
            QueueSpec changed = new QueueRegistry(bind(env), handler -> true).queues().get("orders");
            assertEquals(7, changed.maxAttempts(), overlay + ": JOB_ATTEMPTS");
            assertEquals("parked", changed.deadLetters(), overlay + ": DLQ_NAME");
        });
    }

    private static RedriveConfig bind(Map<String, String> env) {
        // Quarkus' own Duration converter, so "30s" and "1000ms" read as they do in the app.
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withConverter(Duration.class, 200, new io.quarkus.runtime.configuration.DurationConverter())
                .withSources(new EnvConfigSource(env, 300) {
                })
                .withMapping(RedriveConfig.class).build();
        return config.getConfigMapping(RedriveConfig.class);
    }
}
