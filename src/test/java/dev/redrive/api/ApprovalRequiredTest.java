package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApprovalProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.McpClients;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * With redrive.redrives.require-approval, a redrive asked for directly becomes a proposal; a dry run
 * still runs. The rule is RedriveTasks'; each door has its test: REST here, MCP here, the console's
 * forms in console/ApprovalRequiredFormsTest.
 */
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

    @Test
    void anAgentAllowedToRedriveIsStillToldToPropose() {
        String origin = "{appr}mcp";
        DeadLetterSeed.parkMany(appr.redis(), appr.dlq(), origin, 3);
        int parked = appr.deadLetters().size();
        long tasks = appr.redis().key().keys(RedisKeys.redriveTask(appr.dlq(), "*")).size();
        McpClients.as("automation", client -> {
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("redrive",
                    Map.of("dlq", appr.dlq(), "filter", Map.of("origin", origin), "maxPerSecond", 0)));
            assertTrue(result.isError(), result.toString());
            assertEquals("/problems/approval-required", ((Map<?, ?>) result.structuredContent()).get("type"));
        });
        assertEquals(tasks, appr.redis().key().keys(RedisKeys.redriveTask(appr.dlq(), "*")).size(), "no task started");
        assertEquals(parked, appr.deadLetters().size(), "nothing moved");
        assertEquals(0, appr.streams().all(origin).size(), "nothing moved");
    }
}
