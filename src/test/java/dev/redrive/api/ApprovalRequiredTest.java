package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApprovalProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** With redrive.redrives.require-approval, a redrive asked for directly becomes a proposal; a dry run still runs. */
@QuarkusTest
@TestProfile(ApprovalProfile.class)
class ApprovalRequiredTest {

    @Inject
    @Own("appr")
    TestQueue appr;

    @Test
    void aRedriveIsProposedNotStartedAndRunsOnceApproved() {
        DeadLetterSeed.parkMany(appr.redis(), appr.dlq(), ApprovalProfile.TARGET, 12);
        String id = as("operator").contentType("application/json")
                .body("{\"filter\": {\"origin\": \"" + ApprovalProfile.TARGET + "\"}, \"maxPerSecond\": 0}")
                .post(appr.dlqPath() + "/redrives").then().statusCode(202).body("state", equalTo("proposed"))
                .body("matched", equalTo(12)).header("Location", containsString(appr.dlqPath() + "/proposals/")).extract().path("id");
        assertEquals(0, appr.streams().all(ApprovalProfile.TARGET).size(), "nothing moved");

        // a dry run moves nothing: it runs at once
        as("operator").contentType("application/json").body("{\"dryRun\": true}").post(appr.dlqPath() + "/redrives").then()
                .statusCode(202).body("dryRun", equalTo(true));

        String task = as("approver").post(appr.dlqPath() + "/proposals/" + id + "/approve").then().statusCode(202).extract()
                .path("task");
        Await.until("the approved redrive to complete",
                () -> "completed".equals(as("viewer").get(appr.dlqPath() + "/redrives/" + task).jsonPath().getString("state")));
        assertEquals(12, appr.streams().all(ApprovalProfile.TARGET).size());
    }
}
