package dev.redrive.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import dev.redrive.redis.StreamAccess;

/**
 * Walks a group's pending entries in bounded pages from a cursor, one page at a time, wrapping
 * around at the end: each tick costs the same however long the stream or the PEL is.
 */
final class PelPages {

    private final int size;
    private String cursor = "-";
    private boolean busy;

    PelPages(int size) {
        this.size = size;
    }

    int size() {
        return size;
    }

    /** Where the next page starts, or null while the previous page is still being handled. */
    synchronized String begin() {
        if (busy) {
            return null;
        }
        busy = true;
        return cursor;
    }

    /**
     * The first {@code room} entries of a page (of {@code asked}) that the caller wants, and the
     * cursor moved on right after the last one taken: entries wanted but left for lack of room are
     * the start of the next page, not skipped until the cursor comes round again. A short page
     * taken whole was the end: the next page starts from the beginning.
     */
    synchronized List<StreamAccess.Seen> take(List<StreamAccess.Seen> page, int asked, int room,
            Predicate<StreamAccess.Seen> wanted) {
        List<StreamAccess.Seen> taken = new ArrayList<>();
        int used = page.size();
        for (int i = 0; i < page.size() && taken.size() < room; i++) {
            if (wanted.test(page.get(i))) {
                taken.add(page.get(i));
                if (taken.size() == room) {
                    used = i + 1;
                }
            }
        }
        boolean end = used == page.size() && page.size() < asked;
        cursor = end || used == 0 ? "-" : "(" + page.get(used - 1).id();
        return taken;
    }

    synchronized void end() {
        busy = false;
    }
}
