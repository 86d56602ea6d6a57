package dev.redrive.console;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.redrive.api.Filters;
import dev.redrive.deadletter.EntryFilter;

/**
 * The entry filter as the console carries it (query parameters of the entries page, hidden
 * fields of a redrive form), made into an {@link EntryFilter} by the API's own {@link Filters}, so
 * a malformed criterion fails exactly as it does in the API.
 *
 * <p>The entries page's search form sends every field, filled or not, so there a blank field means
 * "any" ({@link #forListing}); a redrive form carries only the criteria of the page it came from,
 * so there a blank criterion is refused like the API refuses it ({@link #forRedrive}): a bulk
 * action is never widened by an empty field.
 */
public record FilterForm(String origin, String job, String failure, String fingerprint, String deadFrom,
        String deadTo, String text) {

    static final String[] NAMES = { "origin", "job", "failure", "fingerprint", "deadFrom", "deadTo", "text" };

    public EntryFilter forListing() {
        return Filters.of(given(origin), given(job), given(failure), given(fingerprint), given(deadFrom), given(deadTo),
                null, given(text));
    }

    public EntryFilter forRedrive() {
        return Filters.of(origin, job, failure, fingerprint, deadFrom, deadTo, null, text);
    }

    /** The criteria given, by parameter name, in a stable order (for links and hidden fields). */
    public Map<String, String> values() {
        Map<String, String> values = new LinkedHashMap<>();
        String[] all = { origin, job, failure, fingerprint, deadFrom, deadTo, text };
        for (int i = 0; i < NAMES.length; i++) {
            if (given(all[i]) != null) {
                values.put(NAMES[i], all[i].trim());
            }
        }
        return values;
    }

    private static String given(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
