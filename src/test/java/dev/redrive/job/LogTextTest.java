package dev.redrive.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What a log line shows of text from outside: one line, every control character escaped. */
class LogTextTest {

    @Test
    void lineBreaksAndOtherControlCharactersAreEscaped() {
        assertEquals("a\\nINFO forged\\r\\tb", LogText.of("a\nINFO forged\r\tb"));
        assertEquals("\\u001b[31m red \\u0085 \\u2028 \\u007f", LogText.of("\u001b[31m red \u0085 \u2028 \u007f"));
        assertEquals("C:\\\\temp\\\\n", LogText.of("C:\\temp\\n"), "a backslash is escaped, so a written \\n is no line break");
    }

    @Test
    void plainTextIsUnchangedAndLongTextCut() {
        assertEquals("orders/1699-0 ünïcode", LogText.of("orders/1699-0 ünïcode"));
        assertEquals("null", LogText.of(null));
        assertEquals("abc… (2 more characters)", LogText.of("abcde", 3));
    }
}
