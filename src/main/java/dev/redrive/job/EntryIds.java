package dev.redrive.job;

import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Stream entry ids ({@code <ms>-<seq>}): the producer's clock is in the id itself. */
public final class EntryIds {

    private static final Pattern ID = Pattern.compile("(\\d{1,20})-(\\d{1,20})");

    /** Redis refuses it in every stream, and no range can start after it. */
    public static final String ZERO = "0-0";

    /** The largest id Redis can hold; no range can start after it either. */
    public static final String MAX = "18446744073709551615-18446744073709551615";

    private EntryIds() {
    }

    /** An id Redis can parse: both parts fit its unsigned 64 bits, so Redis never answers an error. */
    public static boolean isValid(String id) {
        if (id == null) {
            return false;
        }
        Matcher m = ID.matcher(id);
        return m.matches() && fits(m.group(1)) && fits(m.group(2));
    }

    private static boolean fits(String digits) {
        try {
            Long.parseUnsignedLong(digits);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    public static Instant timestamp(String id) {
        int dash = id.indexOf('-');
        return Instant.ofEpochMilli(Long.parseLong(dash < 0 ? id : id.substring(0, dash)));
    }
}
