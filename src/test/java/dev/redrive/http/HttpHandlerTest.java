package dev.redrive.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.DownstreamResource;
import dev.redrive.testing.HttpProfile;
import dev.redrive.testing.LogLines;
import dev.redrive.testing.Own;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The HTTP handler's contract, against a real HTTP server and a real redis-server. */
@QuarkusTest
@TestProfile(HttpProfile.class)
class HttpHandlerTest {

    @Inject
    @Own("calls")
    TestQueue calls;

    @Inject
    @Own("refused")
    TestQueue refused;

    @Inject
    @Own("early")
    TestQueue early;

    @Inject
    @Own("spare")
    TestQueue spare;

    Downstream downstream;

    @BeforeEach
    void setUp() {
        downstream.reset();
    }

    @AfterEach
    void nothingLeftPending() {
        calls.assertDrained();
    }

    List<Downstream.Request> callsFor(String id) {
        return downstream.requests().stream().filter(r -> (calls.jobId(id)).equals(r.jobId())).toList();
    }

    @Test
    void postsThePayloadAsIsWithTheContractHeaders() {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        String id = calls.add(Map.of("payload", "a,b\n1,2\n", "content-type", "text/csv", "job", "import",
                "traceparent", traceparent));
        Await.until("the call", () -> callsFor(id).size() == 1);
        Await.until("the ack", () -> calls.pending() == 0);
        Downstream.Request r = callsFor(id).get(0);
        assertEquals("/jobs", r.path());
        assertEquals("a,b\n1,2\n", new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("text/csv", r.header("Content-Type"));
        assertEquals(calls.jobId(id), r.header("Redrive-Job-Id"));
        assertEquals("calls", r.header("Redrive-Stream"));
        assertEquals("import", r.header("Redrive-Job"));
        assertEquals("1", r.header("Redrive-Attempt"));
        assertEquals("3", r.header("Redrive-Max-Attempts"));
        assertEquals(calls.jobId(id), r.header("Idempotency-Key"));
        assertEquals(traceparent, r.header("traceparent"));
        assertEquals(0, calls.parkedCount(id));
    }

    @Test
    void withoutPayloadTheBodyIsAJsonObjectOfAllFields() throws Exception {
        byte[] binary = {(byte) 0xff, 0x00, (byte) 0xfe};
        String id = calls.add(Map.of("user", "ada", "blob", binary, "idempotency-key", "order-7"));
        Await.until("the call", () -> callsFor(id).size() == 1);
        Downstream.Request r = callsFor(id).get(0);
        assertEquals("application/json", r.header("Content-Type"));
        assertEquals("order-7", r.header("Idempotency-Key"));
        assertEquals("calls", r.header("Redrive-Job"), "no job field: the queue's name");
        assertNull(r.header("traceparent"));
        JsonNode body = new ObjectMapper().readTree(r.body());
        assertEquals("ada", body.get("user").asText());
        assertEquals("order-7", body.get("idempotency-key").asText());
        assertArrayEquals(binary, Base64.getDecoder().decode(body.get("blob").get("base64").asText()));
    }

    @Test
    void a4xxIsTerminalAndParkedAfterOneAttemptWithStatusAndBody() {
        // a reply body with a line break: stored as sent, but it can't write a line of its own into the log
        String body = "{\"error\":\"field 'x' missing\"}\n2026-01-01 00:00:00,000 INFO  operator approved everything";
        downstream.respond(r -> Answer.status(422, body));
        try (LogLines log = LogLines.named("dev.redrive.deadletter.DeadLetterWriter")) {
            String id = calls.add(Map.of("payload", "{}"));
            StreamMessage<String, String, byte[]> parked = Await.value("the parked job", () -> calls.parked(id).orElse(null));
            assertEquals(1, callsFor(id).size());
            assertEquals("terminal", text(parked, "failure"));
            assertEquals("http-422", text(parked, "error-type"));
            assertEquals("HTTP 422 Unprocessable Entity: " + body, text(parked, "reason"));
            assertEquals("1", text(parked, "attempts"));
            String line = Await.value("the park's WARN", () -> log.containing("operator approved").stream().findFirst().orElse(null));
            assertTrue(!line.contains("\n") && line.contains("missing\"}\\n2026-01-01"), line);
        }
    }

    @Test
    void a5xxIsRetriedUpToTheBudgetWithTheSameKeyThenParked() {
        downstream.respond(r -> Answer.status(503, "x".repeat(3000)));
        String id = calls.add(Map.of("payload", "{}"));
        StreamMessage<String, String, byte[]> parked = Await.value("the parked job",
                () -> calls.parked(id).orElse(null));
        List<Downstream.Request> calls = callsFor(id);
        assertEquals(List.of("1", "2", "3"), calls.stream().map(c -> c.header("Redrive-Attempt")).toList());
        assertEquals(1, calls.stream().map(c -> c.header("Idempotency-Key")).distinct().count());
        assertEquals("exhausted", text(parked, "failure"));
        assertEquals("http-503", text(parked, "error-type"));
        String reason = text(parked, "reason");
        assertTrue(reason.startsWith("HTTP 503 Service Unavailable: xxx"), reason);
        assertEquals("HTTP 503 Service Unavailable: ".length() + 1024 + 1, reason.length(), "the first KiB of the body");
    }

    @Test
    void retryAfterIsTheLeastBackoff() {
        downstream.respond(r -> "1".equals(r.header("Redrive-Attempt"))
                ? new Answer(429, "slow down", Map.of("Retry-After", "1"), 0)
                : Answer.ok());
        String id = calls.add(Map.of("payload", "{}"));
        Await.until("the second call", () -> callsFor(id).size() == 2);
        List<Downstream.Request> calls = callsFor(id);
        long gap = Duration.between(calls.get(0).at(), calls.get(1).at()).toMillis();
        assertTrue(gap >= 1000, "Retry-After: 1 was honoured over the 50 ms backoff, gap " + gap + " ms");
    }

    /**
     * A date decades away, a thousand years in seconds, and seconds at and past {@code long}'s end:
     * each is cut to the queue's max-retry-after (1s here), and the job runs again and is done.
     */
    @ParameterizedTest
    @ValueSource(strings = { "Wed, 21 Oct 2099 07:28:00 GMT", "31536000000", "9223372036854775807",
            "99999999999999999999999" })
    void aRetryAfterPastTheCapHoldsTheJobOnlyForMaxRetryAfter(String retryAfter) {
        downstream.respond(r -> "1".equals(r.header("Redrive-Attempt"))
                ? new Answer(429, "slow down", Map.of("Retry-After", retryAfter), 0)
                : Answer.ok());
        String id = calls.add(Map.of("payload", "{}"));
        Await.until("the second call, a max-retry-after after the first", () -> callsFor(id).size() == 2);
        Await.until("the ack", () -> calls.pending() == 0);
        assertEquals(0, calls.parkedCount(id));
        List<Downstream.Request> calls = callsFor(id);
        long gap = Duration.between(calls.get(0).at(), calls.get(1).at()).toMillis();
        assertTrue(gap >= 1000, "the capped hint is still honoured up to the cap, gap " + gap + " ms");
    }

    /**
     * A 200 with a body of a gigabyte, announced or chunked: each attempt ends as transient
     * http-reply-too-long once the reply is known to pass 1 MiB, and the call is cut off: the
     * downstream could write only a few MiB (what the sockets' buffers hold) before redrive hung up,
     * so the reply was never held in memory.
     */
    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void aReplyOverTheLimitEndsTheAttemptAsTooLongWithoutReadingIt(boolean announced) {
        long gigabyte = 1L << 30;
        downstream.respond(r -> Answer.streamed(gigabyte, announced));
        String id = calls.add(Map.of("payload", "{}"));
        StreamMessage<String, String, byte[]> parked = Await.value("the parked job",
                () -> calls.parked(id).orElse(null));
        assertEquals(3, callsFor(id).size());
        assertEquals("exhausted", text(parked, "failure"));
        assertEquals("http-reply-too-long", text(parked, "error-type"));
        assertTrue(text(parked, "reason").contains("over the 1048576-byte limit"), text(parked, "reason"));
        long written = downstream.streamedBytes();
        assertTrue(written < 3 * 64L * 1024 * 1024, "three replies cut off early, " + written + " bytes written");
        downstream.reset();
        String next = calls.add(Map.of("payload", "{}"));
        Await.until("a job after them done", () -> callsFor(next).size() == 1
                && calls.pending() == 0);
        assertEquals(0, calls.parkedCount(next));
    }

    @Test
    void aTimeoutIsTransient() {
        downstream.respond(r -> "1".equals(r.header("Redrive-Attempt")) ? new Answer(200, "", Map.of(), 6000) : Answer.ok());
        String id = calls.add(Map.of("payload", "{}"));
        Await.until("a second attempt after the timeout",
                () -> callsFor(id).stream().anyMatch(c -> "2".equals(c.header("Redrive-Attempt"))));
        Await.until("the ack", () -> calls.pending() == 0);
        assertEquals(0, calls.parkedCount(id));
    }

    @Test
    void aJobWhoseEveryCallOverrunsItsLimitIsParkedAsExhaustedTimeouts() {
        downstream.respond(r -> "slow".equals(new String(r.body(), StandardCharsets.UTF_8))
                ? new Answer(200, "", Map.of(), 4000) : Answer.ok());
        String id = calls.add(Map.of("payload", "slow"));
        StreamMessage<String, String, byte[]> parked = Await.value("the parked job",
                () -> calls.parked(id).orElse(null));
        assertEquals("exhausted", text(parked, "failure"));
        assertEquals("timeout", text(parked, "error-type"));
        assertEquals("3", text(parked, "attempts"));
        assertEquals(3, callsFor(id).size(), "one call per attempt, none after the budget");
    }

    @Test
    void theTimeoutIsTheCallsOwnNotTheWaitForTheBulkhead() {
        // Each call takes 900 ms, well inside the 2 s budget; the third job waits about 1.8 s for
        // the one slot before its call starts. Counted from the wait, its budget would run out
        // during its call, and an attempt would be spent on a job that was answered.
        downstream.respond(r -> isEarly(r) ? new Answer(200, "", Map.of(), 900) : Answer.ok());
        List<String> ids = List.of(early.add(Map.of("payload", "1")),
                early.add(Map.of("payload", "2")), early.add(Map.of("payload", "3")));
        Await.until("the three jobs done", () -> early.pending() == 0
                && downstream.requests().stream().filter(HttpHandlerTest::isEarly).count() >= 3);
        List<Downstream.Request> calls = downstream.requests().stream().filter(HttpHandlerTest::isEarly).toList();
        assertEquals(3, calls.size(), "one call per job");
        calls.forEach(c -> assertEquals("1", c.header("Redrive-Attempt"), c.jobId() + " was called on attempt 1 only"));
        ids.forEach(id -> assertEquals(0, early.parkedCount(id)));
    }

    static boolean isEarly(Downstream.Request r) {
        return r.jobId() != null && r.jobId().startsWith("early/");
    }

    @Test
    void aRefusedConnectionIsTransientAndParkedWhenTheBudgetIsSpent() {
        String id = refused.add(Map.of("payload", "{}"));
        StreamMessage<String, String, byte[]> parked = Await.value("the parked job",
                () -> refused.parked(id).orElse(null));
        assertEquals("exhausted", text(parked, "failure"));
        assertEquals("http-connect", text(parked, "error-type"));
        assertEquals("2", text(parked, "attempts"));
        assertTrue(text(parked, "reason").startsWith("POST http://127.0.0.1:"), text(parked, "reason"));
        Await.until("the refused PEL to be empty", () -> refused.pending() == 0);
    }

    @Test
    void aServerThatRefusesBeforeReadingTheBodyIsAnsweredNotTimedOut() {
        downstream.respond(r -> Answer.status(401, "no token"));
        byte[] big = new byte[2 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) 'x');
        String id = early.add(Map.of("payload", big));
        StreamMessage<String, String, byte[]> parked = Await.value("the refused job to be parked",
                () -> early.parked(id).orElse(null));
        assertEquals("http-401", text(parked, "error-type"), text(parked, "reason"));
        assertEquals("terminal", text(parked, "failure"));
    }

    @Inject
    io.vertx.mutiny.core.Vertx vertx;

    @Test
    void aVertxServerThatAnswersBeforeReadingTheBodyIsAnsweredEveryTime() {
        var server = vertx.createHttpServer()
                .requestHandler(req -> req.response().setStatusCode(204).endAndForget())
                .listenAndAwait(DownstreamResource.SPARE_PORT, "127.0.0.1");
        try {
            List<String> ids = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ids.add(spare.add(Map.of("payload", i % 2 == 0 ? "{\"n\":" + i + "}" : "x".repeat(512 * 1024))));
            }
            Await.until("the spare queue to settle", () -> spare.pending() == 0);
            for (String id : ids) {
                assertEquals(0, spare.parkedCount(id), "job " + id + " completed");
            }
        } finally {
            server.closeAndAwait();
        }
    }

    private static String text(StreamMessage<String, String, byte[]> m, String field) {
        return Streams.text(m.payload().get(field));
    }
}
