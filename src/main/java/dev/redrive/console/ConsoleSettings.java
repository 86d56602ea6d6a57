package dev.redrive.console;

import java.time.Duration;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import dev.redrive.api.RedactedFields;
import dev.redrive.config.InvalidConfigException;
import dev.redrive.config.RedriveConfig;
import io.quarkus.runtime.StartupEvent;

/** {@code redrive.console.*}, checked at start-up with a message naming the property. */
@ApplicationScoped
public class ConsoleSettings {

    private final Set<String> redacted;
    private final Duration refresh;

    @Inject
    public ConsoleSettings(RedriveConfig config, RedactedFields redacted) {
        this.redacted = redacted.names();
        this.refresh = config.console().refresh();
        if (refresh.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidConfigException("redrive.console.refresh", "must be at least 1s (got " + refresh + ")");
        }
    }

    /** Checks the settings at start-up rather than at the first page. */
    void onStart(@Observes StartupEvent event) {
        // Creating the bean ran the checks.
    }

    /** Snapshot fields shown masked unless an operator reveals them ({@link RedactedFields}). */
    public Set<String> redacted() {
        return redacted;
    }

    /** Milliseconds between two refreshes of the overview. */
    public long refreshMillis() {
        return refresh.toMillis();
    }
}
