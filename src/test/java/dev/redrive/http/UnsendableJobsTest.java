package dev.redrive.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.HttpProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Jobs no retry can deliver are parked at once, as terminal: a producer's field that can't be an
 * HTTP header (it failed every attempt with the client's IllegalArgumentException and was parked
 * exhausted), and a provider's status outside HTTP's 100-599 (a 999 was retried as a 5xx).
 */
@QuarkusTest
@TestProfile(HttpProfile.class)
class UnsendableJobsTest {

    @Inject
    @Own("headers")
    TestQueue headers;

    Downstream downstream;

    @BeforeEach
    void setUp() {
        downstream.reset();
    }

    @AfterEach
    void nothingLeftPending() {
        headers.assertDrained();
    }

    @ParameterizedTest(name = "{0} with {1}")
    @CsvSource({
            "job, a line feed, 6c696e650a58", // "line\nX"
            "job, a carriage return and line feed, 610d0a582d496e6a65637465643a2031", // "a\r\nX-Injected: 1"
            "idempotency-key, a NUL, 6b6579006b6579",
            "idempotency-key, a byte that is not UTF-8, 6b6579ff",
            "traceparent, a line feed, 30300a",
            "content-type, a carriage return and line feed, 746578742f706c61696e0d0a582d496e6a65637465643a2031",
            "content-type, a byte that is not UTF-8, 746578742fc3" })
    void aFieldThatCantBeAHeaderIsParkedAtOnceAsBadHeaderValueNamingTheField(String field, String what, String hex) {
        byte[] value = java.util.HexFormat.of().parseHex(hex);
        String id = headers.add(Map.of("payload", "{}", field, value));

        StreamMessage<String, String, byte[]> parked = Await.value("the parked job", () -> headers.parked(id).orElse(null));

        assertEquals("terminal", text(parked, "failure"), what);
        assertEquals("bad-header-value", text(parked, "error-type"));
        assertEquals("1", text(parked, "attempts"), "parked at the first attempt, the budget unspent");
        String reason = text(parked, "reason");
        assertTrue(reason.startsWith("field " + field + " of job " + headers.jobId(id) + " can't be sent as an HTTP header"),
                reason);
        assertEquals(List.of(), callsFor(id), "nothing was sent, so nothing could be injected");
        assertTrue(downstream.requests().stream().noneMatch(r -> r.headers().containsKey("x-injected")));
    }

    /** Text a header may carry, tabs and letters outside ASCII included, is sent as before. */
    @Test
    void aFieldThatCanBeAHeaderIsSent() {
        String id = headers.add(Map.of("payload", "{}", "job", "rechnung\tü".getBytes(StandardCharsets.UTF_8)));

        Await.until("the call", () -> callsFor(id).size() == 1);
        Await.until("the ack", () -> headers.pending() == 0);
        assertEquals(0, headers.parkedCount(id));
    }

    @Test
    void aStatusOutsideHttpsRangeIsTerminal() {
        downstream.respond(r -> Answer.status(999, "what"));
        String id = headers.add(Map.of("payload", "{}"));

        StreamMessage<String, String, byte[]> parked = Await.value("the parked job", () -> headers.parked(id).orElse(null));

        assertEquals("terminal", text(parked, "failure"));
        assertEquals("http-999", text(parked, "error-type"));
        assertEquals(1, callsFor(id).size(), "one call, no retry");
    }

    private List<Downstream.Request> callsFor(String id) {
        return downstream.requests().stream().filter(r -> headers.jobId(id).equals(r.jobId())).toList();
    }

    private static String text(StreamMessage<String, String, byte[]> m, String field) {
        return Streams.text(m.payload().get(field));
    }
}
