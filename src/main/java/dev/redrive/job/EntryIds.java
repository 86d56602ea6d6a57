package dev.redrive.job;

import java.time.Instant;
import java.util.regex.Pattern;

/** Stream entry ids ({@code <ms>-<seq>}): the producer's clock is in the id itself. */
public final class EntryIds {

    private static final Pattern ID = Pattern.compile("\\d{1,20}-\\d{1,20}");

    private EntryIds() {
    }

    public static boolean isValid(String id) {
        return id != null && ID.matcher(id).matches();
    }

    public static Instant timestamp(String id) {
        int dash = id.indexOf('-');
        return Instant.ofEpochMilli(Long.parseLong(dash < 0 ? id : id.substring(0, dash)));
    }
}
