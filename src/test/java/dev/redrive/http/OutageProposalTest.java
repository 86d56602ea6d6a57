package dev.redrive.http;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Streams.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.RecordField;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redrive.OutageProposals;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.HttpProfile;
import dev.redrive.testing.LogLines;
import dev.redrive.testing.Own;
import dev.redrive.testing.Redrives;
import dev.redrive.testing.TestQueue;
import dev.redrive.worker.Workers;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * When a queue's circuit closes after an outage, redrive proposes, as {@code redrive}, to redrive
 * exactly the jobs the outage exhausted: not its terminal failures, not a job exhausted before it
 * began nor one parked after the proposal. Nothing moves until a second operator approves; then
 * each of them runs once, and the rest stays parked. A queue with propose-after-outage=false
 * proposes nothing.
 */
@QuarkusTest
@TestProfile(HttpProfile.class)
class OutageProposalTest {

    /** Jobs the provider answers 503 while down: each is exhausted by the outage (two attempts). */
    static final int TRANSIENT = 6;
    /** Jobs it answers 400, down or not: parked as terminal at their first attempt. */
    static final int TERMINAL = 4;

    /** The provider, set by DownstreamResource. */
    Downstream downstream;

    @Inject
    Workers workers;

    @Inject
    @Own("blackout")
    TestQueue blackout;

    @Inject
    @Own("unproposed")
    TestQueue unproposed;

    private volatile boolean down;
    /** Bodies the provider took (answered 200), and how often. */
    private final Map<String, Integer> taken = new ConcurrentHashMap<>();

    /** The dead letters an outage left: of the jobs it exhausted, and of those it parked as terminal. */
    record Parked(Set<String> exhausted, Set<String> terminal) {
    }

    @Test
    void anOutageProposesTheRedriveOfExactlyWhatItExhaustedAndItsApprovalMovesEachOnce() {
        String before = parkedBy(blackout, "before");
        Await.until("Redis' clock to pass the job exhausted before the outage", () -> redisMillis(blackout) > millis(before));
        Parked outage = outage(blackout);

        JsonPath proposal = Await.value("redrive's proposal of " + blackout.dlq(), () -> {
            List<Map<String, Object>> items = as("viewer").get(blackout.dlqPath() + "/proposals").then().statusCode(200)
                    .extract().jsonPath().getList("items");
            return items.isEmpty() ? null : as("viewer").get(blackout.dlqPath() + "/proposals/" + items.get(0).get("id"))
                    .then().statusCode(200).extract().jsonPath();
        });
        assertEquals("redrive", proposal.getString("proposedBy"));
        assertEquals("proposed", proposal.getString("state"));
        assertEquals(outage.exhausted(), new HashSet<>(proposal.getList("filter.ids", String.class)),
                "the proposal holds exactly the jobs the outage exhausted");
        assertEquals(blackout.stream(), proposal.getString("filter.origin"));
        assertEquals("exhausted", proposal.getString("filter.failure"));
        assertEquals(TRANSIENT, proposal.getInt("matched"));
        assertEquals(TRANSIENT, proposal.getInt("canary"), "canary first: all of them, fewer than ten");
        assertEquals(100, proposal.getInt("maxPerSecond"), "the pace of a redrive that names none");
        String note = proposal.getString("note");
        assertTrue(note.startsWith("Outage of queue blackout from its first failure at ") && note.contains("http-503 ×")
                && note.contains("Redrives the " + TRANSIENT + " job(s) of " + blackout.stream() + " it parked exhausted"),
                note);
        String after = parkedBy(blackout, "after");

        String id = proposal.getString("id");
        String task = as("approver").post(blackout.dlqPath() + "/proposals/" + id + "/approve").then().statusCode(202)
                .extract().path("task");
        JsonPath done = new Redrives(blackout).awaitState(task, "completed");
        assertEquals(TRANSIENT, done.getLong("moved"));
        assertEquals(0, done.getLong("skipped"));
        blackout.assertDrained();
        for (int i = 0; i < TRANSIENT; i++) {
            assertEquals(1, taken.get(body(blackout, "t" + i)), "t" + i + " ran once, after the approval");
        }
        Set<String> parked = new HashSet<>();
        blackout.deadLetters().forEach(m -> parked.add(m.id()));
        Set<String> stay = new HashSet<>(outage.terminal());
        stay.addAll(List.of(before, after));
        assertEquals(stay, parked, "the terminal ones and the jobs exhausted before and after stay parked");
        assertEquals(1, as("viewer").get(blackout.dlqPath() + "/proposals").jsonPath().getList("items").size(),
                "one proposal for the outage");
    }

    @Test
    void aQueueThatDoesNotProposeAfterAnOutageProposesNothing() {
        try (LogLines log = LogLines.of(OutageProposals.class)) {
            Parked outage = outage(unproposed);
            assertEquals(TRANSIENT, outage.exhausted().size());
            Await.until("the end of the outage to be told", () -> !log.containing(
                    "queue unproposed: its outage ended; redrive.queues.unproposed.propose-after-outage is false").isEmpty());
        }
        assertEquals(0, as("viewer").get(unproposed.dlqPath() + "/proposals").jsonPath().getList("items").size());
        assertFalse(unproposed.redis().key().exists(RedisKeys.proposedOutages(unproposed.dlq(), "unproposed")));
    }

    /**
     * Takes the provider down and adds a job that fails with it (once it is exhausted, the outage has
     * begun for sure), then jobs the provider refuses and more that fail with it: the refused ones
     * are called before the circuit can open (it takes ten calls), so they are parked as terminal
     * inside the outage, never as the probe that would close it. Waits until the circuit opened and
     * every job is parked (each failed probe exhausts one), then brings the provider back with one
     * more job, whose call closes the circuit.
     */
    private Parked outage(TestQueue queue) {
        down = true;
        downstream.respond(r -> {
            String body = new String(r.body(), StandardCharsets.UTF_8);
            if (body.contains("-refused")) {
                return Answer.status(400, "refused");
            }
            if (down) {
                return Answer.status(503, "provider down");
            }
            taken.merge(body, 1, Integer::sum);
            return Answer.ok();
        });
        Set<String> transientIds = new HashSet<>();
        Set<String> terminalIds = new HashSet<>();
        String first = queue.add(Map.of("payload", body(queue, "t0")));
        transientIds.add(first);
        queue.awaitParked(first);
        for (int i = 0; i < TERMINAL; i++) {
            terminalIds.add(queue.add(Map.of("payload", body(queue, "refused" + i))));
        }
        for (int i = 1; i < TRANSIENT; i++) {
            transientIds.add(queue.add(Map.of("payload", body(queue, "t" + i))));
        }
        String name = queue.stream();
        Await.until("the circuit of " + name + " to open", () -> Boolean.TRUE.equals(workers.pausedByQueue().get(name)));
        Set<String> exhausted = parked(queue, transientIds, "exhausted");
        Set<String> terminal = parked(queue, terminalIds, "terminal");
        down = false;
        String recovery = body(queue, "recovery");
        queue.add(Map.of("payload", recovery));
        Await.until("the circuit of " + name + " to close", () -> taken.containsKey(recovery)
                && Boolean.FALSE.equals(workers.pausedByQueue().get(name)));
        return new Parked(exhausted, terminal);
    }

    /** The dead-letter ids of these origin entries, once all are parked, each with this failure kind. */
    private static Set<String> parked(TestQueue queue, Set<String> originIds, String failure) {
        Set<String> ids = new HashSet<>();
        for (String origin : originIds) {
            String id = queue.awaitParked(origin);
            assertEquals(failure, text(queue.parked(origin).orElseThrow().payload().get(RecordField.FAILURE.wireName())),
                    origin);
            ids.add(id);
        }
        return ids;
    }

    /** An exhausted dead letter of the queue's stream parked now, with a job to send back; its id. */
    private static String parkedBy(TestQueue queue, String job) {
        return DeadLetterSeed.from(queue.stream(), "1-0").snapshot("payload", body(queue, job)).park(queue.redis(),
                queue.dlq());
    }

    private static long redisMillis(TestQueue queue) {
        var time = queue.redis().execute("TIME");
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }

    private static long millis(String entryId) {
        return Long.parseLong(entryId.substring(0, entryId.indexOf('-')));
    }

    private static String body(TestQueue queue, String job) {
        return "{\"job\": \"" + queue.stream() + "-" + job + "\"}";
    }
}
