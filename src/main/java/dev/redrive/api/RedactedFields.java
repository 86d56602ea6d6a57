package dev.redrive.api;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.redrive.config.InvalidConfigException;
import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.RecordField;

/**
 * The snapshot fields shown masked ({@code redrive.console.redact-fields}), and the one place that
 * masks them: every view of a snapshot goes through here, whoever looks. The console's pages
 * ({@code FieldView}), the REST reads (an entry, a value's download, the audit trail, whose discard
 * records keep the whole snapshot as {@code record:f:<name>}) and every MCP tool result built on
 * them ({@code get_entry}, {@code get_audit}). A masked value is shown in clear only to an operator
 * who reveals it, and the look is audited ({@code deadletter/Reveals}): in the console with its
 * reveal form, on REST with {@code ?reveal=true}; never to a viewer or an agent, nor in an audit
 * page. Names are taken without the white space around them ("card, token" masks {@code token});
 * an empty name is refused at start-up. Before, the console and MCP each read the setting,
 * differently: MCP matched " token" as written, and so showed {@code token} to agents.
 */
@Singleton
public class RedactedFields {

    /** What a masked value shows in the API and MCP (the console shows {@code FieldView.MASK}). */
    public static final String MASKED = "(masked: redrive.console.redact-fields; an operator reveals it with ?reveal=true "
            + "or in the console, audited)";

    /** The discard record's field that holds a packed snapshot: every field at once, so masked whole. */
    private static final String PACKED_RECORD = "record:" + RecordField.SNAPSHOT_PACKED.wireName();

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

    /** Whether the snapshot field {@code name} is shown masked. */
    public boolean masks(String name) {
        return names.contains(name);
    }

    /** The masked ones among a snapshot's field names, in their order: what a reveal shows. */
    public List<String> among(Collection<String> fieldNames) {
        return fieldNames.stream().filter(names::contains).toList();
    }

    /** A snapshot as JSON ({@link ValueJson}), its masked fields as {@link #MASKED}. */
    Map<String, Object> snapshot(Map<String, Excerpt.Value> snapshot) {
        Map<String, Object> json = new LinkedHashMap<>();
        snapshot.forEach((name, value) -> json.put(name, names.contains(name) ? MASKED : ValueJson.of(value)));
        return json;
    }

    /**
     * An audit record's fields as JSON, a discarded snapshot's masked fields ({@code record:f:<name>})
     * as {@link #MASKED}, and a packed one ({@code record:snapshot-packed}) masked whole while any
     * field is masked: it holds them all in one value.
     */
    Map<String, Object> auditRecord(Map<String, Excerpt.Value> fields) {
        Map<String, Object> json = new LinkedHashMap<>();
        fields.forEach((name, value) -> {
            String discarded = name.startsWith("record:") ? RecordField.snapshotName(name.substring("record:".length())) : null;
            boolean masked = discarded != null ? names.contains(discarded) : name.equals(PACKED_RECORD) && !names.isEmpty();
            json.put(name, masked ? MASKED : ValueJson.of(value));
        });
        return json;
    }
}
