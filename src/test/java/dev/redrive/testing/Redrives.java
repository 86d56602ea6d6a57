package dev.redrive.testing;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Streams.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.redrive.deadletter.RecordField;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.restassured.path.json.JsonPath;

/**
 * Bulk redrives of one test class's dead-letter stream through the operator API: seed records,
 * start a task, follow it to a state, and check what landed where (each redrive test class on its
 * own queue, so a count of the stream is that class's alone).
 */
public final class Redrives {

    private final TestQueue queue;

    public Redrives(TestQueue queue) {
        this.queue = queue;
    }

    /** Parks {@code n} records of origin {@code origin}, each with a snapshot. */
    public void seed(String origin, int n) {
        DeadLetterSeed.parkMany(queue.redis(), queue.dlq(), origin, n);
    }

    /** Starts a redrive with this JSON body as the operator; returns the task's id. */
    public String start(String body) {
        return as("operator").contentType("application/json").body(body).post(queue.dlqPath() + "/redrives")
                .then().statusCode(202).extract().path("id");
    }

    public JsonPath status(String task) {
        return as("viewer").get(queue.dlqPath() + "/redrives/" + task).then().statusCode(200).extract().jsonPath();
    }

    public JsonPath awaitState(String task, String state) {
        return Await.value("redrive " + task + " to be " + state, () -> {
            JsonPath s = status(task);
            return state.equals(s.getString("state")) ? s : null;
        });
    }

    /** Starts a redrive with this body and waits for it to complete; its final status. */
    public JsonPath completed(String body) {
        return awaitState(start(body), "completed");
    }

    /**
     * Seeds {@code n} records of {@code origin}, redrives them all ({@code options} added to the
     * body, e.g. {@code "maxPerSecond": 0}) and checks that every one moved once and none is left
     * parked; the task's final status.
     */
    public JsonPath moveAll(String origin, int n, String options) {
        seed(origin, n);
        JsonPath done = completed("{\"filter\": {\"origin\": \"" + origin + "\"}, " + options + "}");
        assertEquals(n, done.getLong("moved"));
        assertEquals(0, done.getLong("remaining"));
        noneTwice(origin, n);
        assertEquals(0, parkedFrom(origin));
        return done;
    }

    /** Records of the dead-letter stream from {@code origin}. */
    public long parkedFrom(String origin) {
        return queue.deadLetters().stream().filter(m -> origin.equals(text(m.payload().get("origin-stream")))).count();
    }

    /** Every job in the stream came from a different dead letter: none was moved twice. */
    public void noneTwice(String stream, int expected) {
        List<StreamMessage<String, String, byte[]>> all = queue.streams().all(stream);
        Set<String> sources = new HashSet<>();
        all.forEach(m -> sources.add(text(m.payload().get("replay-of"))));
        assertEquals(expected, all.size(), "jobs in " + stream);
        assertEquals(expected, sources.size(), "distinct dead letters behind them");
    }

    /** What each entry redriven back to {@code stream} replays: {@code <dlq>/<id>}, in stream order. */
    public List<String> replaysIn(String stream) {
        return queue.streams().all(stream).stream().map(m -> text(m.payload().get("replay-of"))).toList();
    }

    /** The audit records of the steps of {@code task} that moved entries. */
    public List<StreamMessage<String, String, byte[]>> movesAudited(String task) {
        return queue.streams().all(queue.dlq() + ":audit").stream()
                .filter(m -> "redrive-moves".equals(text(m.payload().get("action"))))
                .filter(m -> task.equals(text(m.payload().get("task")))).toList();
    }

    /** Parks one record as given (a snapshot field unless the record says it has none); returns its id. */
    public String park(String origin, String job, String failure, String fingerprint, String deadAt) {
        DeadLetterSeed record = DeadLetterSeed.from(origin, "1-0").with(RecordField.JOB, job)
                .with(RecordField.FAILURE, failure).with(RecordField.FINGERPRINT, fingerprint)
                .with(RecordField.DEAD_AT, deadAt);
        return (failure.equals("missing") ? record.snapshotMissing() : record.snapshot("payload", job + " " + deadAt))
                .park(queue.redis(), queue.dlq());
    }

    /** Every entry a listing with this query finds, following its cursor to the end. */
    public List<String> listed(String query) {
        List<String> ids = new ArrayList<>();
        String after = null;
        do {
            JsonPath page = as("viewer").get(queue.dlqPath() + "/entries?order=oldest&count=500&" + query
                    + (after == null ? "" : "&after=" + after)).then().statusCode(200).extract().jsonPath();
            ids.addAll(page.getList("items.id", String.class));
            after = page.getString("next");
        } while (after != null);
        return ids;
    }

    /** What a dry run with this filter matches. */
    public long dryRunMatches(String filter) {
        return completed("{\"filter\": " + filter + ", \"dryRun\": true}").getLong("matched");
    }
}
