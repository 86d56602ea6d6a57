package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** A request that says one thing twice, or gives an empty key, is refused naming it (api/AmbiguousRequests). */
@QuarkusTest
@TestProfile(ApiProfile.class)
class AmbiguousRequestsTest {

    @Inject
    @Own("amb")
    TestQueue amb;

    @Test
    void aRepeatedQueryParameterIsRefusedNamingIt() {
        as("viewer").get(amb.dlqPath() + "/entries?count=1&count=1000").then().statusCode(400)
                .body("type", equalTo("/problems/ambiguous-request")).body("detail", containsString("'count'"));
        as("viewer").get(amb.dlqPath() + "/entries?origin=a&origin=b").then().statusCode(400)
                .body("detail", containsString("'origin'"));
        as("viewer").get(amb.dlqPath() + "/entries?count=1").then().statusCode(200);
    }

    @Test
    void anEmptyOrRepeatedIdempotencyKeyIsRefusedAndReplaysNothing() {
        String id = amb.awaitParked(amb.add(Map.of("cause", "timeout", "order", "ambiguous")));
        String replay = amb.dlqPath() + "/entries/" + id + "/replay";
        as("operator").header(AmbiguousRequests.IDEMPOTENCY_KEY, "").contentType("application/json").body("{}")
                .post(replay).then().statusCode(400).body("type", equalTo("/problems/ambiguous-request"))
                .body("detail", containsString("Idempotency-Key"));
        as("operator").header(AmbiguousRequests.IDEMPOTENCY_KEY, "a").header(AmbiguousRequests.IDEMPOTENCY_KEY, "b")
                .contentType("application/json").body("{}").post(replay).then().statusCode(400)
                .body("detail", containsString("Idempotency-Key"));
        assertTrue(amb.deadLetters().stream().anyMatch(m -> m.id().equals(id)), "still parked");
        // The replay's rule (deadletter/Replays), the console's confirm key's too (ConsoleWritesTest).
        as("operator").header(AmbiguousRequests.IDEMPOTENCY_KEY, "k".repeat(201)).contentType("application/json")
                .body("{}").post(replay).then().statusCode(400).body("type", equalTo("/problems/ambiguous-request"));
        assertTrue(amb.deadLetters().stream().anyMatch(m -> m.id().equals(id)), "still parked");
        as("operator").header(AmbiguousRequests.IDEMPOTENCY_KEY, "k".repeat(200)).contentType("application/json")
                .body("{}").post(replay).then().statusCode(201);
    }
}
