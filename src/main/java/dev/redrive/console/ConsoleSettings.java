package dev.redrive.console;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import dev.redrive.config.InvalidConfigException;
import dev.redrive.config.RedriveConfig;
import io.quarkus.runtime.StartupEvent;

/** {@code redrive.console.*}, checked at start-up with a message naming the property. */
@ApplicationScoped
public class ConsoleSettings {

    private final Set<String> redacted;
    private final Duration refresh;

    @Inject
    public ConsoleSettings(RedriveConfig config) {
        List<String> fields = config.console().redactFields().orElse(List.of());
        for (String field : fields) {
            if (field.isBlank()) {
                throw new InvalidConfigException("redrive.console.redact-fields", "must not name an empty field (got " + fields + ")");
            }
        }
        this.redacted = Set.copyOf(new TreeSet<>(fields.stream().map(String::trim).toList()));
        this.refresh = config.console().refresh();
        if (refresh.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidConfigException("redrive.console.refresh", "must be at least 1s (got " + refresh + ")");
        }
    }

    /** Checks the settings at start-up rather than at the first page. */
    void onStart(@Observes StartupEvent event) {
        // Creating the bean ran the checks.
    }

    /** Snapshot fields shown masked unless an operator reveals them. */
    public Set<String> redacted() {
        return redacted;
    }

    /** Milliseconds between two refreshes of the overview. */
    public long refreshMillis() {
        return refresh.toMillis();
    }
}
