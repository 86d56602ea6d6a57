package dev.redrive.deploy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * A kustomization rendered by {@code kubectl kustomize} and read into fabric8's typed models,
 * with the fields each model did not recognise (typos such as {@code readinesProbe} land there
 * instead of failing).
 */
final class Manifests {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    /** The kustomizations a cluster gets, under deploy/k8s/. */
    static final List<String> OVERLAYS = List.of("base", "overlays/production", "overlays/redis-tls-acl");
    private static Map<String, Manifests> overlays;

    final String overlay;
    final List<HasMetadata> objects;

    private Manifests(String overlay, List<HasMetadata> objects) {
        this.overlay = overlay;
        this.objects = objects;
    }

    /**
     * Every overlay, rendered once per test JVM for the classes that read them (a render takes
     * about two seconds); without kubectl the calling class's tests are skipped.
     */
    static synchronized Map<String, Manifests> overlays() {
        Optional<Path> kubectl = Tools.find("kubectl");
        assumeTrue(kubectl.isPresent(), Tools.missing("kubectl", "kubectl"));
        if (overlays == null) {
            Map<String, Manifests> rendered = new LinkedHashMap<>();
            OVERLAYS.forEach(overlay -> rendered.put(overlay, render(kubectl.get(), overlay)));
            overlays = Collections.unmodifiableMap(rendered);
        }
        return overlays;
    }

    static Manifests render(Path kubectl, String overlay) {
        Tools.Result r = Tools.run(Tools.ROOT, 120, List.of(kubectl.toString(), "kustomize", "deploy/k8s/" + overlay), false);
        if (!r.ok()) {
            throw new AssertionError("kubectl kustomize deploy/k8s/" + overlay + " failed:\n" + r.output());
        }
        List<HasMetadata> objects = new ArrayList<>();
        for (String doc : r.output().split("(?m)^---\\s*$")) {
            if (doc.isBlank()) {
                continue;
            }
            Object parsed = SERIALIZATION.unmarshal(doc);
            if (!(parsed instanceof HasMetadata h)) {
                throw new AssertionError(overlay + ": not a Kubernetes object: " + doc);
            }
            objects.add(h);
        }
        return new Manifests(overlay, objects);
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type, String name) {
        return find(type, name).orElseThrow(() -> new AssertionError(overlay + " renders no " + type.getSimpleName() + " " + name));
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst();
    }

    List<GenericKubernetesResource> generic(String kind) {
        return all(GenericKubernetesResource.class).stream().filter(g -> kind.equals(g.getKind())).toList();
    }

    /** Paths of fields a typed model kept as "additional properties", i.e. did not know. */
    static List<String> unknownFields(Object root) {
        List<String> found = new ArrayList<>();
        walk(root, root.getClass().getSimpleName(), found, new IdentityHashMap<>());
        return found;
    }

    private static void walk(Object o, String path, List<String> found, IdentityHashMap<Object, Boolean> seen) {
        if (o == null || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object item : c) {
                walk(item, path + "[" + i++ + "]", found, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> walk(v, path + "." + k, found, seen));
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        Predicate<Method> getter = m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                && m.getParameterCount() == 0 && m.getName().startsWith("get") && !m.getName().equals("getClass");
        for (Method m : o.getClass().getMethods()) {
            if (!getter.test(m)) {
                continue;
            }
            Object value;
            try {
                value = m.invoke(o);
            } catch (ReflectiveOperationException | RuntimeException e) {
                continue;
            }
            if (m.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    found.add(path + " " + extra.keySet());
                }
            } else {
                walk(value, path + "." + decapitalise(m.getName().substring(3)), found, seen);
            }
        }
    }

    private static String decapitalise(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
