package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.redrive.redis.StreamAccess;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import dev.redrive.testing.WorkerProfile;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/** Stalled jobs (a consumer that died), leases of slow jobs, trimmed entries, gone consumers. */
@QuarkusTest
@TestProfile(WorkerProfile.class)
class StallRecoveryTest {

    @Inject
    @Own("stalls")
    TestQueue stalls;

    @Inject
    RedisDataSource redis;

    @Inject
    StreamAccess access;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @AfterEach
    void nothingLeftPending() {
        stalls.assertDrained();
    }

    /**
     * Adds an entry and hands it, atomically, to a consumer that then "dies": it is delivered
     * {@code deliveries} times and never acked. The group's last-delivered id moves past it, so
     * only stall recovery can bring it back.
     */
    String strandedUnder(String consumer, int deliveries, Map<String, String> fields) {
        StringBuilder script = new StringBuilder("local id = redis.call('XADD', KEYS[1], '*'");
        fields.forEach((k, v) -> script.append(", '").append(k).append("', '").append(v).append("'"));
        script.append(")\nredis.call('XGROUP', 'SETID', KEYS[1], ARGV[1], id)\n")
                .append("redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, id, 'FORCE', 'JUSTID', 'RETRYCOUNT', ARGV[3])\n")
                .append("return id");
        return redis.execute("EVAL", script.toString(), "1", stalls.stream(), stalls.group(), consumer, Integer.toString(deliveries)).toString();
    }

    @Test
    void aDeadConsumersJobIsTakenOverAsItsNextAttempt() {
        String id = strandedUnder("dead-pod-1", 1, Map.of("kind", "ok"));
        Await.until("the stalled job to complete", () -> handler.completions(stalls.jobId(id)) == 1);
        List<ScriptedHandler.Attempt> attempts = handler.attemptsOf(stalls.jobId(id));
        assertEquals(1, attempts.size());
        assertEquals(2, attempts.get(0).attempt(), "the lost delivery counts: this is attempt 2");
        Await.until("the dead consumer to be removed", () -> !consumers().contains("dead-pod-1"));
    }

    @Test
    void aStalledJobAtItsBudgetIsParkedAsExhaustedWithoutRunning() {
        String id = strandedUnder("dead-pod-2", 3, Map.of("kind", "ok"));
        StreamMessage<String, String, byte[]> parked = Await.value("the parked job",
                () -> stalls.parked(id).orElse(null));
        assertEquals("exhausted", Streams.text(parked.payload().get("failure")));
        assertEquals("4", Streams.text(parked.payload().get("attempts")));
        assertEquals(0, handler.attemptsOf(stalls.jobId(id)).size());
    }

    @Test
    void aTrimmedEntryIsParkedAsMissingNotDropped() {
        String id = strandedUnder("dead-pod-3", 1, Map.of("kind", "ok"));
        redis.execute("XDEL", stalls.stream(), id);
        StreamMessage<String, String, byte[]> parked = Await.value("the parked job",
                () -> stalls.parked(id).orElse(null));
        Map<String, byte[]> r = parked.payload();
        assertEquals("missing", Streams.text(r.get("failure")));
        assertEquals("entry trimmed from stalls before it completed", Streams.text(r.get("reason")));
        assertEquals("missing", Streams.text(r.get("snapshot")));
        assertEquals("dead-pod-3", Streams.text(r.get("consumer")));
        assertEquals(stalls.stream(), Streams.text(r.get("origin-stream")));
        assertEquals(1, stalls.parkedCount(id));
    }

    @Test
    void aSlowJobKeepsItsLeaseAndIsNeverTakenOver() {
        String id = stalls.add(Map.of("kind", "slow:2500"));
        AtomicLong longestIdle = new AtomicLong();
        Await.until("the slow job to complete", () -> {
            stalls.streams().commands().xpending(stalls.stream(), stalls.group(), io.quarkus.redis.datasource.stream.StreamRange.of(id, id), 1)
                    .forEach(p -> longestIdle.accumulateAndGet(p.getDurationSinceLastDelivery().toMillis(), Math::max));
            return handler.completions(stalls.jobId(id)) == 1;
        });
        assertEquals(1, handler.attemptsOf(stalls.jobId(id)).size());
        assertTrue(longestIdle.get() < 600, "the heartbeat kept the job's idle time under the visibility timeout, was "
                + longestIdle.get() + " ms");
    }

    @Test
    void aConsumerWithPendingEntriesIsNeverForgotten() {
        redis.execute("XGROUP", "CREATE", "forget-check", "g", "$", "MKSTREAM");
        redis.execute("XGROUP", "CREATECONSUMER", "forget-check", "g", "empty");
        redis.execute("XADD", "forget-check", "*", "k", "v");
        redis.execute("XREADGROUP", "GROUP", "g", "holder", "COUNT", "1", "STREAMS", "forget-check", ">");
        List<String> deleted = access.forgetConsumers("forget-check", "g", Duration.ZERO, List.of("keep-me"))
                .await().atMost(Duration.ofSeconds(5));
        assertEquals(List.of("empty"), deleted);
        assertEquals(1, stalls.streams().pending("forget-check", "g"), "the holder's entry is still pending");
    }

    private List<String> consumers() {
        var reply = redis.execute("XINFO", "CONSUMERS", stalls.stream(), stalls.group());
        List<String> names = new java.util.ArrayList<>();
        reply.forEach(c -> names.add(c.get(1).toString()));
        return names;
    }
}
