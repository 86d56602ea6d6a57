package dev.redrive.worker;

import java.util.List;

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

    synchronized void advance(List<StreamAccess.Seen> page) {
        advance(page, page.size(), size);
    }

    /**
     * After a page of {@code asked} entries of which the caller used only the first {@code used}
     * (it ran out of room): the next page starts right after them, so nothing it skipped waits for
     * the cursor to come round again. A short page that was used whole was the end: wrap around.
     */
    synchronized void advance(List<StreamAccess.Seen> page, int used, int asked) {
        boolean end = used == page.size() && page.size() < asked;
        cursor = end || used == 0 ? "-" : "(" + page.get(used - 1).id();
    }

    synchronized void end() {
        busy = false;
    }
}
