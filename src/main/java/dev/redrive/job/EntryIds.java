package dev.redrive.job;

import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Stream entry ids ({@code <ms>-<seq>}): the producer's clock is in the id itself. */
public final class EntryIds {

    private static final Pattern ID = Pattern.compile("(\\d{1,20})-(\\d{1,20})");

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

    /**
     * True for 0-0 and the largest id, however written (00-0 too): Redis refuses the first in
     * every stream and can't range past either, so neither is ever a page's cursor.
     */
    public static boolean isEnd(String id) {
        Matcher m = ID.matcher(id);
        if (!m.matches()) {
            return false;
        }
        long ms = Long.parseUnsignedLong(m.group(1));
        long seq = Long.parseUnsignedLong(m.group(2));
        return (ms == 0 && seq == 0) || (ms == -1L && seq == -1L);
    }

    private static boolean fits(String digits) {
        try {
            Long.parseUnsignedLong(digits);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Orders two ids as Redis does (milliseconds, then sequence; unsigned): negative when
     * {@code a} comes first. An id without a sequence ({@code 1700000000000}) is its {@code -0}.
     */
    public static int compare(String a, String b) {
        long[] x = parts(a);
        long[] y = parts(b);
        int c = Long.compareUnsigned(x[0], y[0]);
        return c != 0 ? c : Long.compareUnsigned(x[1], y[1]);
    }

    private static long[] parts(String id) {
        int dash = id.indexOf('-');
        return dash < 0 ? new long[] { Long.parseUnsignedLong(id), 0 }
                : new long[] { Long.parseUnsignedLong(id.substring(0, dash)), Long.parseUnsignedLong(id.substring(dash + 1)) };
    }

    public static Instant timestamp(String id) {
        int dash = id.indexOf('-');
        return Instant.ofEpochMilli(Long.parseLong(dash < 0 ? id : id.substring(0, dash)));
    }
}
