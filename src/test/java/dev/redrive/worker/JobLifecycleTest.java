package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.TestQueue;
import dev.redrive.testing.WorkerProfile;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/** A job's life through a Java handler, against a real redis-server. */
@QuarkusTest
@TestProfile(WorkerProfile.class)
class JobLifecycleTest {

    @Inject
    @Own("jobs")
    TestQueue jobs;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @AfterEach
    void nothingLeftPending() {
        jobs.assertDrained();
    }

    @Test
    void successfulJobsAreAckedOnceAndNeverParked() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ids.add(jobs.add(Map.of("kind", "ok", "n", i)));
        }
        Await.until("50 completions", () -> ids.stream().allMatch(id -> handler.completions(jobs.jobId(id)) == 1));
        Await.until("the PEL to drain", () -> jobs.pending() == 0);
        for (String id : ids) {
            assertEquals(1, handler.attemptsOf(jobs.jobId(id)).size(), "attempts of " + id);
            assertEquals(0, jobs.parkedCount(id), "parked " + id);
        }
    }

    @Test
    void flakyJobIsDoneOnItsThirdAttemptWithTheBackoffRespected() {
        String id = jobs.add(Map.of("kind", "flaky:2"));
        Await.until("the flaky job to complete", () -> handler.completions(jobs.jobId(id)) == 1);
        List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(jobs.jobId(id));
        assertEquals(List.of(1, 2, 3), attempts.stream().map(ScriptedHandler.Attempt::attempt).toList());
        // backoff 200 ms doubling, minus at most 20 % jitter: >= 160 ms, then >= 320 ms
        long first = Duration.between(attempts.get(0).startedAt(), attempts.get(1).startedAt()).toMillis();
        long second = Duration.between(attempts.get(1).startedAt(), attempts.get(2).startedAt()).toMillis();
        assertTrue(first >= 160, "gap before attempt 2 was " + first + " ms");
        assertTrue(second >= 320, "gap before attempt 3 was " + second + " ms");
        assertEquals(0, jobs.parkedCount(id));
        attempts.forEach(a -> assertEquals(jobs.jobId(id), a.idempotencyKey(), "the same key on every attempt"));
    }

    @Test
    void poisonJobIsParkedAfterExactlyItsAttemptsWithEveryRecordField() {
        Instant before = Instant.now().minusMillis(5);
        String id = jobs.add(Map.of("kind", "poison", "job", "transcode", "payload", "{\"doc\":42}"));
        StreamMessage<String, String, byte[]> parked = Await.value("the poison job to be parked",
                () -> jobs.parked(id).orElse(null));
        assertEquals(3, handler.attemptsOf(jobs.jobId(id)).size());
        Map<String, byte[]> r = parked.payload();
        assertEquals(jobs.stream(), text(r, "origin-stream"));
        assertEquals(id, text(r, "origin-id"));
        assertEquals(jobs.group(), text(r, "group"));
        assertEquals(WorkerProfile.CONSUMER, text(r, "consumer"));
        assertEquals("transcode", text(r, "job"));
        assertEquals("exhausted", text(r, "failure"));
        assertEquals("java.lang.IllegalStateException", text(r, "error-type"));
        assertEquals("provider answered 503 for doc 42", text(r, "reason"));
        assertEquals("3", text(r, "attempts"));
        assertEquals("3", text(r, "max-attempts"));
        assertEquals("0", text(r, "replays"));
        Instant enqueued = Instant.parse(text(r, "enqueued-at"));
        Instant last = Instant.parse(text(r, "last-attempt-at"));
        Instant dead = Instant.parse(text(r, "dead-at"));
        assertEquals(Long.parseLong(id.substring(0, id.indexOf('-'))), enqueued.toEpochMilli());
        assertFalse(enqueued.isBefore(before));
        assertFalse(last.isBefore(enqueued));
        assertFalse(dead.isBefore(last));
        assertEquals(12, text(r, "fingerprint").length());
        assertEquals("poison", text(r, "f:kind"));
        assertEquals("transcode", text(r, "f:job"));
        assertEquals("{\"doc\":42}", text(r, "f:payload"));
        assertEquals(1, jobs.parkedCount(id), "parked exactly once");
    }

    @Test
    void terminalFailureIsParkedAfterOneAttempt() {
        String id = jobs.add(Map.of("kind", "terminal"));
        StreamMessage<String, String, byte[]> parked = Await.value("the job to be parked",
                () -> jobs.parked(id).orElse(null));
        assertEquals(1, handler.attemptsOf(jobs.jobId(id)).size());
        assertEquals("terminal", text(parked.payload(), "failure"));
        assertEquals("1", text(parked.payload(), "attempts"));
        assertEquals("input rejected: field 'x' missing", text(parked.payload(), "reason"));
        assertEquals("dev.redrive.job.TerminalJobException", text(parked.payload(), "error-type"));
    }

    @Test
    void jobsThatFailTogetherAreEachParkedOnceWithTheirOwnRecordAndCounted() {
        long parkedBefore = parkedCounter();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add(jobs.add(Map.of("kind", "terminal", "n", i)));
        }
        Await.until("40 jobs parked", () -> ids.stream().allMatch(id -> jobs.parkedCount(id) == 1));
        for (int i = 0; i < ids.size(); i++) {
            StreamMessage<String, String, byte[]> parked = jobs.parked(ids.get(i)).orElseThrow();
            assertEquals(Integer.toString(i), text(parked.payload(), "f:n"), "each record carries its own snapshot");
        }
        assertEquals(parkedBefore + 40, parkedCounter(), "the counters beside the stream count each park once");
    }

    private long parkedCounter() {
        String v = jobs.redis().hash(String.class).hget(jobs.dlq() + ":stats", "parked");
        return v == null ? 0 : Long.parseLong(v);
    }

    @Test
    void binaryPayloadIsSnapshottedByteForByte() {
        byte[] payload = new byte[512];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i;
        }
        payload[3] = (byte) 0xC3; // a lone UTF-8 lead byte: not valid text
        payload[4] = (byte) 0x28;
        String id = jobs.add(Map.of("kind", "terminal", "payload", payload, "empty", ""));
        StreamMessage<String, String, byte[]> parked = Await.value("the binary job to be parked",
                () -> jobs.parked(id).orElse(null));
        assertArrayEquals(payload, parked.payload().get("f:payload"));
        assertArrayEquals(new byte[0], parked.payload().get("f:empty"));
        assertArrayEquals(payload, handler.attemptsOf(jobs.jobId(id)).get(0).fields().get("payload"),
                "the handler gets the bytes as they were written");
    }

    @Test
    void tenMegabytePayloadIsHandledAndParkedWhole() {
        byte[] big = new byte[10 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) 'x');
        big[big.length - 1] = '!';
        String ok = jobs.add(Map.of("kind", "ok", "payload", big));
        String bad = jobs.add(Map.of("kind", "terminal", "payload", big));
        Await.until("the big job to complete", () -> handler.completions(jobs.jobId(ok)) == 1);
        StreamMessage<String, String, byte[]> parked = Await.value("the big poison job to be parked",
                () -> jobs.parked(bad).orElse(null));
        assertArrayEquals(big, parked.payload().get("f:payload"));
        assertEquals(big.length, handler.attemptsOf(jobs.jobId(ok)).get(0).fields().get("payload").length);
    }

    @Test
    void handlerSlowerThanTheBackoffIsNeverRunTwiceAtOnce() {
        String id = jobs.add(Map.of("kind", "slow:1500"));
        Await.until("the slow job to complete", () -> handler.completions(jobs.jobId(id)) == 1);
        assertEquals(1, handler.attemptsOf(jobs.jobId(id)).size(), "a running job is never claimed for a retry");
        assertEquals(1, handler.mostAtOnce(jobs.jobId(id)));
    }

    @Test
    void entryWithoutPayloadOrWithEmptyValuesIsStillHandled() {
        String id = jobs.add(Map.of("note", "", "kind", "ok"));
        Await.until("the job to complete", () -> handler.completions(jobs.jobId(id)) == 1);
        assertEquals(0, jobs.parkedCount(id));
    }

    @Test
    void deliveryOverTheBudgetIsParkedWithoutRunning() {
        // An entry that reaches the worker with its budget already spent (say, through stall
        // recovery after JOB_ATTEMPTS was lowered) must be parked, never run. Seed one atomically:
        // add it, mark it delivered, and put it under the retry consumer with 3 deliveries.
        String seed = "local id = redis.call('XADD', KEYS[1], '*', 'kind', 'ok')\n"
                + "redis.call('XGROUP', 'SETID', KEYS[1], ARGV[1], id)\n"
                + "redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, id, 'FORCE', 'JUSTID', 'RETRYCOUNT', 3)\n"
                + "return id";
        String id = jobs.streams().redis().execute("EVAL", seed, "1", jobs.stream(), jobs.group(), Consumers.RETRY).toString();
        StreamMessage<String, String, byte[]> parked = Await.value("the over-budget job to be parked",
                () -> jobs.parked(id).orElse(null));
        assertEquals("exhausted", text(parked.payload(), "failure"));
        assertEquals("4", text(parked.payload(), "attempts"));
        assertEquals("budget", text(parked.payload(), "error-type"));
        assertEquals(0, handler.attemptsOf(jobs.jobId(id)).size(), "never run past its budget");
    }

    private static String text(Map<String, byte[]> record, String field) {
        byte[] v = record.get(field);
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }
}
