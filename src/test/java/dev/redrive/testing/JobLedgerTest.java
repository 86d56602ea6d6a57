package dev.redrive.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/** The invariant check itself: clean when every life is done or parked once, and it names each kind of breach. */
class JobLedgerTest {

    @Test
    void aJobDoneOrParkedOnceIsCleanAndReRunsAreCountedNotHeld() {
        JobLedger ledger = produced("a", "1-0", "b", "2-0");
        ledger.succeeded("1-0");
        ledger.succeeded("1-0"); // at-least-once: a second run of a done life
        ledger.attempted("2-0");
        ledger.parked("9-0", "2-0");
        ledger.replayed("9-0", "2-0", "3-0");
        ledger.succeeded("3-0");

        JobLedger.Report report = ledger.check().assertClean();

        assertEquals(2, report.jobs());
        assertEquals(3, report.lives());
        assertEquals(1, report.reruns());
    }

    @Test
    void aLifeNeitherDoneNorParkedIsLost() {
        JobLedger ledger = produced("a", "1-0", "b", "2-0");
        ledger.attempted("1-0");

        JobLedger.Report report = ledger.check();

        assertFalse(report.clean());
        assertEquals(List.of("1-0 (job a)"), report.lost());
        assertEquals(List.of("2-0 (job b)"), report.neverAttempted());
        AssertionError error = assertThrows(AssertionError.class, report::assertClean);
        assertTrue(error.getMessage().contains("lost (attempted, neither done nor parked): 1 [1-0 (job a)]"), error.getMessage());
    }

    @Test
    void aLifeParkedTwiceDoneAndParkedOrReplayedTwiceIsCaught() {
        JobLedger ledger = produced("a", "1-0", "b", "2-0", "c", "3-0");
        ledger.parked("8-0", "1-0");
        ledger.parked("9-0", "1-0");
        ledger.succeeded("2-0");
        ledger.parked("10-0", "2-0");
        ledger.parked("11-0", "3-0");
        ledger.replayed("11-0", "3-0", "12-0");
        ledger.replayed("11-0", "3-0", "13-0");
        ledger.succeeded("12-0");
        ledger.succeeded("13-0");

        JobLedger.Report report = ledger.check();

        assertEquals(1, report.parkedTwice().size(), report.toString());
        assertTrue(report.parkedTwice().get(0).startsWith("1-0 (job a)"), report.toString());
        assertEquals(List.of("2-0 (job b)"), report.doneAndParked());
        assertEquals(List.of("11-0 -> [12-0, 13-0]"), report.replayedTwice());
        assertFalse(report.clean());
    }

    @Test
    void parksAndReplaysAreReadFromTheDeadLetterStreamAndItsAuditTrail() throws Exception {
        try (RedisServer server = new RedisServer().start(); RawRedis raw = new RawRedis(server)) {
            JobLedger ledger = produced("a", "1-1", "b", "1-2", "c", "1-3");
            ledger.attempted("1-1");
            ledger.attempted("1-2");
            ledger.attempted("1-3");
            raw.call("XADD", "{q}:dlq", "5-1", "origin-id", "1-1");
            raw.call("XADD", "{q}:dlq", "5-3", "origin-id", "1-2"); // a second park of 1-2, whose first was replayed
            raw.call("XADD", "{q}:dlq:audit", "*", "action", "replay", "dlq-id", "5-2", "origin-id", "1-2", "new-id", "6-1");
            raw.call("XADD", "{q}:dlq:audit", "*", "action", "redrive-moves", "moves", "5-4 6-2 1-3 q\n5-4 6-3 1-3 q");
            ledger.succeeded("6-1");
            ledger.succeeded("6-2");
            ledger.succeeded("6-3");

            ledger.readDeadLetters(args -> plain(raw.call((Object[]) args)), "{q}:dlq", "{q}:dlq:audit");
            JobLedger.Report report = ledger.check();

            assertEquals(List.of(), report.lost(), report.toString());
            assertEquals(1, report.parkedTwice().size(), report.toString());
            assertTrue(report.parkedTwice().get(0).startsWith("1-2 (job b)"), report.toString());
            assertEquals(List.of("5-4 -> [6-2, 6-3]"), report.replayedTwice());
        }
    }

    /** Vert.x's reply as the ledger reads RESP: lists, longs, strings. */
    private static Object plain(Response r) {
        if (r == null) {
            return null;
        }
        if (r.type() == ResponseType.MULTI) {
            List<Object> items = new ArrayList<>();
            r.forEach(item -> items.add(plain(item)));
            return items;
        }
        return r.type() == ResponseType.NUMBER ? (Object) r.toLong() : r.toString();
    }

    /** A ledger that counted these jobs, given as job and entry id in turn. */
    private static JobLedger produced(String... jobsAndIds) {
        JobLedger ledger = new JobLedger();
        for (int i = 0; i < jobsAndIds.length; i += 2) {
            ledger.produced(jobsAndIds[i], jobsAndIds[i + 1]);
        }
        return ledger;
    }
}
