package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.redrive.deadletter.RecordField;
import dev.redrive.testing.Await;
import dev.redrive.testing.JobLedger;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import dev.redrive.testing.WorkerProfile;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/**
 * A producer that trims its stream ({@code XADD ... MAXLEN ~ 50}, the common idiom) while
 * handlers are slow and some fail: jobs are trimmed while they run, while they wait for their
 * retry, before they are parked. Every job the group delivered ends done or parked ({@code missing}
 * included), none unaccounted for, none twice: on Redis 7 a plain XCLAIM (the lease heartbeat,
 * the hand-over, an immediate retry) drops a trimmed entry from the PEL, and before transfer.lua
 * about a tenth of these jobs vanished that way.
 */
@QuarkusTest
@TestProfile(WorkerProfile.class)
class TrimmedJobsTest {

    /** 300 jobs, a fifth of them slow: twice what any other test waits. */
    static final Duration BOUND = Await.BOUND.multipliedBy(2);
    static final int JOBS = 300;
    static final long MAX_LEN = 50;
    /**
     * The producer never runs more than this many jobs ahead of the handler, so approximate trimming
     * (which keeps at least MAX_LEN entries) never removes an entry the group has not read: no
     * consumer can account for a job it never saw.
     */
    static final int AHEAD = 20;

    @Inject
    @Own("trims")
    TestQueue trims;

    @Inject
    @Own("trimsnow")
    TestQueue trimsnow;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    /** trims hands failed jobs to the retry consumer; trimsnow retries them at once (no backoff). */
    @ParameterizedTest
    @ValueSource(strings = { "trims", "trimsnow" })
    void everyDeliveredJobIsDoneOrParkedWhileTheProducerTrims(String stream) {
        TestQueue queue = stream.equals(trims.stream()) ? trims : trimsnow;
        Streams streams = queue.streams();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            Await.until("the handler to catch up with the producer", BOUND, () -> unattempted(stream, ids) < AHEAD);
            ids.add(streams.addTrimming(stream, MAX_LEN, Map.of("kind", kind(i), "n", Integer.toString(i))));
        }
        String dlq = queue.dlq();
        // Every job read and none pending: each is done or parked, or, before the fix, gone.
        Await.until("every job read and the PEL empty", BOUND,
                () -> unattempted(stream, ids) == 0 && queue.pending() == 0);

        JobLedger.Report report = ledger(streams, stream, dlq, ids).check();
        long missing = streams.all(dlq).stream().filter(m -> "missing".equals(field(m, RecordField.FAILURE))).count();
        System.out.printf("%s: %s%s parked as missing: %d%n", stream, report, stream, missing);
        report.assertClean();
        assertTrue(missing > 0, "the producer trimmed jobs before they completed: " + report);
    }

    /** A tenth slow and failing, a tenth slow and succeeding, a tenth failing quickly, a tenth terminal, the rest quick. */
    private static String kind(int i) {
        return switch (i % 10) {
            case 0 -> "slow-fail:700";
            case 3 -> "poison";
            case 5 -> "slow:700";
            case 7 -> "terminal";
            default -> "ok";
        };
    }

    private int unattempted(String stream, List<String> ids) {
        int n = 0;
        for (String id : ids) {
            if (handler.attemptCount(stream + "/" + id) == 0) {
                n++;
            }
        }
        return n;
    }

    private JobLedger ledger(Streams streams, String stream, String dlq, List<String> ids) {
        JobLedger ledger = new JobLedger();
        for (String id : ids) {
            ledger.produced(id, id);
            int attempts = handler.attemptCount(stream + "/" + id);
            int successes = handler.completions(stream + "/" + id);
            for (int a = 0; a < attempts; a++) {
                if (a < successes) {
                    ledger.succeeded(id);
                } else {
                    ledger.attempted(id);
                }
            }
        }
        for (StreamMessage<String, String, byte[]> m : streams.all(dlq)) {
            if (stream.equals(field(m, RecordField.ORIGIN_STREAM))) {
                ledger.parked(m.id(), field(m, RecordField.ORIGIN_ID));
            }
        }
        return ledger;
    }

    private static String field(StreamMessage<String, String, byte[]> m, RecordField field) {
        byte[] value = m.payload().get(field.wireName());
        return value == null ? "" : Streams.text(value);
    }
}
