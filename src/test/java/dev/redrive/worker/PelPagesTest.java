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
        pages.take(page(1, 3), 3, Integer.MAX_VALUE, s -> true);
        pages.end();
        assertEquals("(3-0", pages.begin());
        pages.take(page(4, 2), 3, Integer.MAX_VALUE, s -> true);
        pages.end();
        assertEquals("-", pages.begin());
    }

    @Test
    void entriesLeftForLackOfRoomAreNextNotSkipped() {
        PelPages pages = new PelPages(100);
        pages.begin();
        // 40 asked and read, the even ones wanted, room for 5: 2, 4, 6, 8, 10; the rest is next
        List<StreamAccess.Seen> taken = pages.take(page(1, 40), 40, 5,
                s -> Integer.parseInt(s.id().split("-")[0]) % 2 == 0);
        assertEquals(List.of("2-0", "4-0", "6-0", "8-0", "10-0"), taken.stream().map(StreamAccess.Seen::id).toList());
        pages.end();
        assertEquals("(10-0", pages.begin());
        // a short page with room for all it holds: the end
        assertEquals(30, pages.take(page(11, 30), 40, 100, s -> true).size());
        pages.end();
        assertEquals("-", pages.begin());
        // a full page where nothing is wanted: on past it
        assertEquals(List.of(), pages.take(page(1, 40), 40, 5, s -> false));
        pages.end();
        assertEquals("(40-0", pages.begin());
        pages.take(page(1, 0), 40, 5, s -> true);
        pages.end();
        assertEquals("-", pages.begin());
    }
}
