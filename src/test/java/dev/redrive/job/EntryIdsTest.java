package dev.redrive.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Entry ids order as Redis orders them: milliseconds, then sequence, both unsigned. */
class EntryIdsTest {

    @Test
    void idsOrderByMillisecondsThenSequence() {
        assertEquals(0, EntryIds.compare("5-1", "5-1"));
        assertTrue(EntryIds.compare("5-1", "5-2") < 0);
        assertTrue(EntryIds.compare("5-10", "5-9") > 0, "numbers, not text");
        assertTrue(EntryIds.compare("10-0", "9-99") > 0);
        assertEquals(0, EntryIds.compare("7", "7-0"), "an id without a sequence is its -0");
    }

    @Test
    void theLargestIdComesLast() {
        assertTrue(EntryIds.compare("18446744073709551615-0", "9223372036854775807-0") > 0, "unsigned, as in Redis");
        assertTrue(EntryIds.compare("1-18446744073709551615", "1-0") > 0);
    }
}
