package dev.redrive.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.EntryFilter;

/**
 * A proposal's filter in words on its page: a few ids are listed, and the thousands an outage's
 * proposal may hold are counted instead of filling the page.
 */
class ProposalFilterWordsTest {

    static EntryFilter byIds(int n) {
        return new EntryFilter("orders", null, "exhausted", null, null, null,
                IntStream.rangeClosed(1, n).mapToObj(i -> i + "-0").toList(), null);
    }

    @Test
    void aFewIdsAreListedAndManyAreCounted() {
        assertEquals(List.of("origin: orders", "failure: exhausted", "ids: 1-0, 2-0, 3-0"),
                ProposalPages.describe(byIds(3)));
        assertEquals("ids: 1-0, 2-0, 3-0, 4-0, 5-0, 6-0, 7-0, 8-0, 9-0, 10-0 and 4802 more (4812 in all; the API's "
                + "proposal lists every one)", ProposalPages.describe(byIds(4812)).get(2));
        assertEquals(List.of("everything in the stream"), ProposalPages.describe(EntryFilter.ALL));
    }
}
