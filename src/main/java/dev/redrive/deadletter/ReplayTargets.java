package dev.redrive.deadletter;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.QueueRegistry;
import dev.redrive.config.QueueSpec;
import dev.redrive.config.RedriveConfig;

/**
 * Which streams redrive knows: the dead-letter streams it may read, and the streams a replay may
 * write to (the streams of configured queues and watched groups, plus
 * {@code redrive.replay.allowed-streams}). A record
 * naming any other origin is never written anywhere.
 */
@ApplicationScoped
public class ReplayTargets {

    @Inject
    QueueRegistry registry;

    @Inject
    RedriveConfig config;

    public List<String> deadLetterStreams() {
        return registry.deadLetterStreams();
    }

    public boolean isDeadLetterStream(String name) {
        return deadLetterStreams().contains(name);
    }

    public Set<String> allowedOrigins() {
        Set<String> allowed = new LinkedHashSet<>();
        registry.queues().values().forEach(q -> allowed.add(q.stream()));
        registry.watches().values().forEach(w -> allowed.add(w.stream()));
        config.replay().allowedStreams().ifPresent(allowed::addAll);
        return allowed;
    }

    public boolean mayReplayTo(String origin) {
        return allowedOrigins().contains(origin);
    }

    /** The configured queue reading a stream, if any: its group tells whether a replayed job is done. */
    public QueueSpec queueOf(String stream) {
        return registry.byStream(stream).orElse(null);
    }
}
