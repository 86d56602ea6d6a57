package dev.redrive.api;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.redrive.config.InvalidConfigException;
import dev.redrive.config.RedriveConfig;

/**
 * The snapshot fields shown masked ({@code redrive.console.redact-fields}), as one set for every
 * face that shows a dead letter's fields without a reveal: the console's pages and the agents'
 * {@code get_entry}. Names are taken without the white space around them ("card, token" masks
 * {@code token}); an empty name is refused at start-up. Before, the console and MCP each read the
 * setting, differently: MCP matched " token" as written, and so showed {@code token} to agents.
 */
@Singleton
public class RedactedFields {

    private final Set<String> names;

    @Inject
    public RedactedFields(RedriveConfig config) {
        List<String> fields = config.console().redactFields().orElse(List.of());
        for (String field : fields) {
            if (field.isBlank()) {
                throw new InvalidConfigException("redrive.console.redact-fields", "must not name an empty field (got " + fields + ")");
            }
        }
        this.names = Set.copyOf(new TreeSet<>(fields.stream().map(String::strip).toList()));
    }

    /** The names of the masked fields. */
    public Set<String> names() {
        return names;
    }
}
