package dev.redrive.deadletter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * What an operator's input to a replay or a discard must be, one rule in {@link Replays} for the
 * API and the console (AmbiguousRequestsTest and ConsoleWritesTest send the same inputs through both).
 */
class ReplayInputRulesTest {

    @Test
    void aDiscardReasonIsKeptWithoutTheWhiteSpaceAroundIt() {
        assertEquals("duplicate of 42", Replays.reason("  duplicate of 42\r\n"));
        assertEquals("a  b", Replays.reason("a  b"), "white space inside is the operator's");
        String longest = "r".repeat(Replays.MAX_REASON);
        assertEquals(longest, Replays.reason(" " + longest + "\n"), "the limit counts what is kept");
    }

    @Test
    void aDiscardWithoutAReasonOrWithOneTooLongIsRefused() {
        for (String none : new String[] { null, "", " ", "\n\t " }) {
            DeadLetterException e = assertThrows(DeadLetterException.class, () -> Replays.reason(none));
            assertEquals(DeadLetterException.Reason.BAD_REASON, e.reason());
        }
        DeadLetterException e = assertThrows(DeadLetterException.class,
                () -> Replays.reason("r".repeat(Replays.MAX_REASON + 1)));
        assertEquals(DeadLetterException.Reason.BAD_REASON, e.reason());
    }

    @Test
    void anIdempotencyKeyIsOneTo200CharactersKeptExactly() {
        assertEquals("k", Replays.idempotencyKey("k"));
        assertEquals(" k ", Replays.idempotencyKey(" k "), "a key is compared exactly: not trimmed");
        String longest = "k".repeat(Replays.MAX_KEY);
        assertEquals(longest, Replays.idempotencyKey(longest));
        for (String bad : new String[] { null, "", "  ", "k".repeat(Replays.MAX_KEY + 1) }) {
            DeadLetterException e = assertThrows(DeadLetterException.class, () -> Replays.idempotencyKey(bad));
            assertEquals(DeadLetterException.Reason.BAD_KEY, e.reason());
        }
    }
}
