package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.RecordField;
import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ValidatableResponse;

/**
 * Input the API must refuse before it acts: selections that would widen to everything, bounds that
 * compare wrongly, bodies with something after the JSON, unknown or repeated fields, and ids Redis
 * can't hold. Each answers a 400 problem naming what is wrong, and nothing changes.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class FailClosedInputTest {

    /** Where this class's dead letters came from: a stream of the queue's slot that no worker reads. */
    static final String ORIGIN = "{closed}pick";

    @Inject
    @Own("closed")
    TestQueue closed;

    String park() {
        return DeadLetterSeed.from(ORIGIN, "1-0").with(RecordField.JOB, "closed")
                .with(RecordField.FINGERPRINT, "eeeeeeeeeeee").with(RecordField.DEAD_AT, "2026-01-01T00:00:00Z")
                .snapshot("payload", "x").park(closed.redis(), closed.dlq());
    }

    long tasks() {
        return closed.redis().sortedSet(String.class).zcard(RedisKeys.redriveTasks(closed.dlq()));
    }

    ValidatableResponse redrive(String body) {
        return as("operator").contentType("application/json").body(body).post(closed.dlqPath() + "/redrives").then();
    }

    ValidatableResponse replay(String id, String body) {
        return as("operator").contentType("application/json").body(body).post(closed.dlqPath() + "/entries/" + id + "/replay").then();
    }

    static void refused(ValidatableResponse r, String naming) {
        problem(r, 400);
        r.body("detail", containsString(naming));
    }

    @Test
    void emptySelectionsAndUnboundedTimesAreRefusedNotWidenedToEverything() {
        String id = park();
        long before = tasks();
        long depth = closed.redis().stream(String.class).xlen(closed.dlq());
        refused(redrive("{\"filter\": {\"ids\": []}}"), "ids");
        refused(redrive("{\"filter\": {\"ids\": []}, \"dryRun\": true}"), "ids");
        refused(redrive("{\"filter\": {\"origin\": \"\"}}"), "origin");
        refused(redrive("{\"filter\": {\"job\": \"\"}}"), "job");
        refused(redrive("{\"filter\": {\"ids\": [42]}}"), "ids");
        // null is what an empty selection often serialises to (a nil slice in Go): never "any".
        refused(redrive("{\"filter\": {\"ids\": null}}"), "filter.ids is null");
        refused(redrive("{\"filter\": {\"origin\": null}, \"dryRun\": true}"), "filter.origin is null");
        refused(redrive("{\"filter\": null}"), "filter must be an object");
        refused(redrive("{\"filter\": {\"deadFrom\": \"+10000-01-01T00:00:00Z\"}}"), "deadFrom");
        refused(redrive("{\"filter\": {\"deadTo\": \"+10000-01-01T00:00:00Z\"}}"), "deadTo");
        refused(redrive("{\"filter\": {\"deadFrom\": \"-0001-12-31T00:00:00Z\"}}"), "deadFrom");
        refused(redrive("{\"filter\": {\"deadFrom\": \"2026-01-02T00:00:00Z\", \"deadTo\": \"2026-01-01T00:00:00Z\"}}"),
                "deadFrom");
        assertEquals(before, tasks(), "no redrive was started");

        refused(as("viewer").get(closed.dlqPath() + "/entries?ids=").then(), "ids");
        refused(as("viewer").get(closed.dlqPath() + "/entries?origin=").then(), "origin");
        refused(as("viewer").get(closed.dlqPath() + "/entries?deadFrom=" + enc("+10000-01-01T00:00:00Z")).then(), "deadFrom");
        refused(as("viewer").get(closed.dlqPath() + "/entries?deadTo=tomorrow").then(), "deadTo");
        // Reads of one entry take no parameters: an ignored ?range= would send a whole value unasked.
        refused(as("viewer").get(closed.dlqPath() + "/entries/" + id + "?fields=kind").then(), "fields");
        refused(as("viewer").get(closed.dlqPath() + "/entries/" + id + "/fields/payload?range=0-10").then(), "range");
        // The widest bounds a record's dead-at can hold are accepted, and compare as instants.
        List<String> listed = as("viewer").get(closed.dlqPath() + "/entries?deadFrom=" + enc("0000-01-01T00:00:00Z") + "&deadTo="
                + enc("9999-12-31T23:59:59.999999999Z") + "&ids=" + id).then().statusCode(200).extract().path("items.id");
        assertEquals(List.of(id), listed);
        assertEquals(depth, closed.redis().stream(String.class).xlen(closed.dlq()), "nothing moved");
    }

    @Test
    void garbledBodiesAreRefusedAndNothingHappens() {
        String id = park();
        long before = tasks();
        refused(replay(id, "{\"note\":\"fix\"} {\"fields\":{\"kind\":\"ok\"}}"), "");
        refused(replay(id, "{\"note\":\"fix\"}]"), "");
        refused(replay(id, "{\"note\":\"a\",\"note\":\"b\"}"), "note");
        refused(replay(id, "{\"nte\":\"fix\"}"), "nte");
        refused(replay(id, "null"), "object");
        refused(replay(id, "\"fix\""), "object");
        refused(replay(id, "{\"note\":42}"), "note");
        refused(redrive("{\"dryRun\":true}]]"), "");
        refused(redrive("{\"dryRun\":true} {\"dryRun\":false}"), "");
        refused(redrive("{\"dryRun\":true,\"maxPerSecnd\":5}"), "maxPerSecnd");
        refused(redrive("{\"dryRun\":true,\"dryRun\":false}"), "dryRun");
        refused(redrive("{\"dryRun\":\"true\"}"), "dryRun");
        refused(redrive("{\"dryRun\":true,\"maxPerSecond\":\"5\"}"), "maxPerSecond");
        refused(redrive("{\"dryRun\":true,\"filter\":{\"job\":\"a\",\"job\":\"b\"}}"), "job");
        refused(redrive("[{\"dryRun\":true}]"), "object");
        assertEquals(before, tasks(), "no redrive was started");
        assertEquals(1, closed.redis().stream(String.class).xrange(closed.dlq(), io.quarkus.redis.datasource.stream.StreamRange.of(id, id))
                .size(), "the entry is still parked");
    }

    @Test
    void idsRedisCannotHoldAreRefusedBeforeRedis() {
        String max = "18446744073709551615-18446744073709551615";
        refused(as("viewer").get(closed.dlqPath() + "/entries/18446744073709551616-0").then(), "18446744073709551616-0");
        refused(as("viewer").get(closed.dlqPath() + "/entries/0-18446744073709551616").then(), "0-18446744073709551616");
        refused(replay("99999999999999999999-0", "{}"), "99999999999999999999-0");
        refused(as("operator").delete(closed.dlqPath() + "/entries/18446744073709551616-0?reason=x").then(), "18446744073709551616-0");
        refused(as("viewer").get(closed.dlqPath() + "/entries?after=0-0").then(), "0-0");
        refused(as("viewer").get(closed.dlqPath() + "/entries?after=000-00").then(), "000-00");
        refused(as("viewer").get(closed.dlqPath() + "/entries?order=oldest&after=" + max).then(), max);
        refused(as("viewer").get(closed.dlqPath() + "/audit?after=0-0").then(), "0-0");
        refused(as("viewer").get(closed.dlqPath() + "/entries?after=18446744073709551616-0").then(), "18446744073709551616-0");
        refused(redrive("{\"filter\": {\"ids\": [\"18446744073709551616-0\"]}}"), "18446744073709551616-0");
        // The largest id Redis can hold is an id, just not one that is parked.
        problem(as("viewer").get(closed.dlqPath() + "/entries/" + max).then(), 404);
        problem(as("viewer").get(closed.dlqPath() + "/entries/0-0").then(), 404);
    }
}
