package dev.redrive.deadletter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class FingerprintTest {

    @Test
    void idsNumbersAndQuotedTextAreNormalisedAway() {
        Fingerprint a = Fingerprint.of("http-422", "HTTP 422: field 'x' missing in doc 123");
        Fingerprint b = Fingerprint.of("http-422", "HTTP 422: field 'total' missing in doc 98765");
        assertEquals(a, b);
        assertEquals("http-422: HTTP #: field ? missing in doc #", a.text());
        assertEquals(Fingerprint.of("t", "job 3f2a9c1e-8b7d-4e6f-a1b2-c3d4e5f60718 failed"),
                Fingerprint.of("t", "job 00000000-8b7d-4e6f-a1b2-c3d4e5f60718 failed"));
    }

    @Test
    void differentCausesStayApart() {
        assertNotEquals(Fingerprint.of("http-422", "field missing"), Fingerprint.of("http-400", "field missing"));
        assertNotEquals(Fingerprint.of("x", "timeout"), Fingerprint.of("x", "refused"));
    }
}
