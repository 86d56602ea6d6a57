package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.StreamAccess;

class PelPagesTest {

    static List<StreamAccess.Seen> page(int from, int n) {
        return IntStream.range(from, from + n).mapToObj(i -> new StreamAccess.Seen(i + "-0", "c", 1, Duration.ZERO)).toList();
    }

    @Test
    void aFullPageMovesTheCursorPastItAndAShortOneWrapsAround() {
        PelPages pages = new PelPages(3);
        assertEquals("-", pages.begin());
        assertNull(pages.begin(), "one page at a time");
        pages.advance(page(1, 3));
        pages.end();
        assertEquals("(3-0", pages.begin());
        pages.advance(page(4, 2));
        pages.end();
        assertEquals("-", pages.begin());
    }

    @Test
    void entriesLeftForLackOfRoomAreNextNotSkipped() {
        PelPages pages = new PelPages(100);
        pages.begin();
        pages.advance(page(1, 40), 10, 40); // 40 asked, 40 read, room for the first 10 only
        pages.end();
        assertEquals("(10-0", pages.begin());
        pages.advance(page(11, 30), 30, 40); // short and used whole: the end
        pages.end();
        assertEquals("-", pages.begin());
        pages.advance(page(1, 0), 0, 40);
        pages.end();
        assertEquals("-", pages.begin());
    }
}
