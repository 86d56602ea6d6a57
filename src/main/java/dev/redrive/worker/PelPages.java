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
        cursor = page.size() < size ? "-" : "(" + page.get(page.size() - 1).id();
    }

    synchronized void end() {
        busy = false;
    }
}
