package dev.redrive.job;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Fields packed into one value by the Lua scripts (lib/fields.lua): {@code <bytes>:<name><bytes>:<value>...}.
 * A command from Lua can't carry more than about 8,000 arguments, so a snapshot of more than
 * 3,500 fields is parked packed, and a replay of more than that many fields goes back to its
 * stream packed in the {@link ReservedField#PACKED} field; redrive unpacks both wherever it reads them.
 */
public final class PackedFields {

    /** The field of a replayed entry that carries its fields packed (consumers of other groups see it as is). */
    private static final String REPLAYED = ReservedField.PACKED.wireName();

    private PackedFields() {
    }

    /** The fields of a packed value, in order; null when the value is not a whole packed value. */
    public static Map<String, byte[]> decode(byte[] packed) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        int at = 0;
        String name = null;
        while (at < packed.length) {
            int colon = at;
            long length = 0;
            while (colon < packed.length && packed[colon] >= '0' && packed[colon] <= '9' && length <= Integer.MAX_VALUE) {
                length = length * 10 + (packed[colon] - '0');
                colon++;
            }
            if (colon == at || colon >= packed.length || packed[colon] != ':' || length > packed.length - colon - 1) {
                return null;
            }
            byte[] item = Arrays.copyOfRange(packed, colon + 1, colon + 1 + (int) length);
            at = colon + 1 + (int) length;
            if (name == null) {
                name = new String(item, StandardCharsets.UTF_8);
            } else {
                fields.put(name, item);
                name = null;
            }
        }
        return name == null ? fields : null;
    }

    /**
     * The fields as the job's handler should see them: a replayed entry's {@link ReservedField#PACKED}
     * field unpacked in its place, the fields redrive added beside it kept. Anything else, or a
     * value that does not unpack, is returned as it is.
     */
    public static Map<String, byte[]> expand(Map<String, byte[]> fields) {
        byte[] packed = fields.get(REPLAYED);
        Map<String, byte[]> inner = packed == null ? null : decode(packed);
        if (inner == null) {
            return fields;
        }
        Map<String, byte[]> all = new LinkedHashMap<>(inner);
        fields.forEach((name, value) -> {
            if (!name.equals(REPLAYED)) {
                all.put(name, value);
            }
        });
        return all;
    }
}
