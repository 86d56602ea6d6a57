package dev.redrive.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.RedisResource;
import dev.redrive.testing.Streams;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;

/** A request that says one thing twice, or gives an empty key, is refused naming it (api/AmbiguousRequests). */
@QuarkusTest
@WithTestResource(RedisResource.class)
@TestProfile(ApiProfile.class)
class AmbiguousRequestsTest {

    static final String DLQ = "till-dead";

    @Inject
    RedisDataSource redis;

    RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, ApiUsers.password(user));
    }

    @Test
    void aRepeatedQueryParameterIsRefusedNamingIt() {
        as("viewer").get("/dlq/" + DLQ + "/entries?count=1&count=1000").then().statusCode(400)
                .body("type", equalTo("/problems/ambiguous-request")).body("detail", containsString("'count'"));
        as("viewer").get("/dlq/" + DLQ + "/entries?origin=a&origin=b").then().statusCode(400)
                .body("detail", containsString("'origin'"));
        as("viewer").get("/dlq/" + DLQ + "/entries?count=1").then().statusCode(200);
    }

    @Test
    void anEmptyOrRepeatedIdempotencyKeyIsRefusedAndReplaysNothing() {
        Streams streams = new Streams(redis);
        String originId = streams.add("till", Map.of("cause", "timeout", "order", "ambiguous"));
        String id = Await.value("parked", Duration.ofSeconds(20),
                () -> streams.parked(DLQ, originId).map(StreamMessage::id).orElse(null));
        String replay = "/dlq/" + DLQ + "/entries/" + id + "/replay";
        as("operator").header(AmbiguousRequests.IDEMPOTENCY_KEY, "").contentType("application/json").body("{}")
                .post(replay).then().statusCode(400).body("type", equalTo("/problems/ambiguous-request"))
                .body("detail", containsString("Idempotency-Key"));
        as("operator").header(AmbiguousRequests.IDEMPOTENCY_KEY, "a").header(AmbiguousRequests.IDEMPOTENCY_KEY, "b")
                .contentType("application/json").body("{}").post(replay).then().statusCode(400)
                .body("detail", containsString("Idempotency-Key"));
        assertTrue(streams.all(DLQ).stream().anyMatch(m -> m.id().equals(id)), "still parked");
        // The replay's rule (deadletter/Replays), the console's confirm key's too (ConsoleWritesTest).
        as("operator").header(AmbiguousRequests.IDEMPOTENCY_KEY, "k".repeat(201)).contentType("application/json")
                .body("{}").post(replay).then().statusCode(400).body("type", equalTo("/problems/ambiguous-request"));
        assertTrue(streams.all(DLQ).stream().anyMatch(m -> m.id().equals(id)), "still parked");
        as("operator").header(AmbiguousRequests.IDEMPOTENCY_KEY, "k".repeat(200)).contentType("application/json")
                .body("{}").post(replay).then().statusCode(201);
    }
}
