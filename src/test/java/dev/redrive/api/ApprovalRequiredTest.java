package dev.redrive.api;

import static dev.redrive.api.DeadLetterApiTest.as;
import static dev.redrive.api.DeadLetterApiTest.enc;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApprovalProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.RedisResource;
import dev.redrive.testing.Streams;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** With redrive.redrives.require-approval, a redrive asked for directly becomes a proposal; a dry run still runs. */
@QuarkusTest
@WithTestResource(RedisResource.class)
@TestProfile(ApprovalProfile.class)
class ApprovalRequiredTest {

    static final String D = "/dlq/" + enc(ApprovalProfile.DLQ);

    @Inject
    RedisDataSource redis;

    @Test
    void aRedriveIsProposedNotStartedAndRunsOnceApproved() {
        DeadLetterSeed.parkMany(redis, ApprovalProfile.DLQ, ApprovalProfile.TARGET, 12);
        Streams streams = new Streams(redis);
        String id = as("operator").contentType("application/json")
                .body("{\"filter\": {\"origin\": \"" + ApprovalProfile.TARGET + "\"}, \"maxPerSecond\": 0}")
                .post(D + "/redrives").then().statusCode(202).body("state", equalTo("proposed"))
                .body("matched", equalTo(12)).header("Location", containsString(D + "/proposals/")).extract().path("id");
        assertEquals(0, streams.all(ApprovalProfile.TARGET).size(), "nothing moved");

        // a dry run moves nothing: it runs at once
        as("operator").contentType("application/json").body("{\"dryRun\": true}").post(D + "/redrives").then()
                .statusCode(202).body("dryRun", equalTo(true));

        String task = as("approver").post(D + "/proposals/" + id + "/approve").then().statusCode(202).extract()
                .path("task");
        Await.until("the approved redrive to complete", Duration.ofSeconds(30),
                () -> "completed".equals(as("viewer").get(D + "/redrives/" + task).jsonPath().getString("state")));
        assertEquals(12, streams.all(ApprovalProfile.TARGET).size());
    }
}
