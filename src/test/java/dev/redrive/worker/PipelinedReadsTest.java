package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.TestQueue;
import dev.redrive.testing.WorkerProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/**
 * A worker with room for several batches keeps several reads in flight (issue 27; how many, and
 * when, is pinned by SlotsTest): queue {@code pipelined} runs 40 jobs at once and reads 5 at a
 * time. Each backlog is staged inside Redis in one script, so it is all there when the reads come.
 */
@QuarkusTest
@TestProfile(WorkerProfile.class)
class PipelinedReadsTest {

    static final int CONCURRENCY = 40;
    private static final String ADD = "for i = 1, tonumber(ARGV[1]) do redis.call('XADD', KEYS[1], '*', 'kind', ARGV[2]) end";

    @Inject
    @Own("pipelined")
    TestQueue pipelined;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @AfterEach
    void nothingLeftPending() {
        pipelined.assertDrained();
    }

    private List<String> stage(int n, String kind) {
        long before = pipelined.entries().size();
        pipelined.redis().execute("EVAL", ADD, "1", pipelined.stream(), Integer.toString(n), kind);
        List<String> ids = pipelined.entries().stream().skip(before).map(m -> m.id()).toList();
        assertEquals(n, ids.size());
        return ids;
    }

    @Test
    void readsInFlightTogetherNeverDeliverAnEntryTwice() {
        List<String> ids = stage(3000, "ok");
        Await.until("3000 completions", () -> ids.stream().allMatch(id -> handler.completions(pipelined.jobId(id)) >= 1));
        Await.until("the PEL to drain", () -> pipelined.pending() == 0);
        for (String id : ids) {
            assertEquals(1, handler.attemptCount(pipelined.jobId(id)), "attempts of " + id);
            assertEquals(1, handler.completions(pipelined.jobId(id)), "completions of " + id);
        }
    }

    @Test
    void aSlowHandlerNeverGetsMoreThanItsConcurrencyAtOnce() {
        List<String> ids = stage(400, "slow:40");
        Await.until("400 slow completions", () -> ids.stream().allMatch(id -> handler.completions(pipelined.jobId(id)) == 1));
        int most = handler.mostInStreamAtOnce(pipelined.stream());
        assertTrue(most <= CONCURRENCY, "at most " + CONCURRENCY + " at once, saw " + most);
        assertTrue(most > 5, "the reads fill more than one batch of slots, saw " + most);
    }
}
