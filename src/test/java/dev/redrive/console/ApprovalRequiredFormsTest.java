package dev.redrive.console;

import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApprovalProfile;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.quarkus.test.junit.TestProfile;

/**
 * The console's door to redrive.redrives.require-approval (REST's and MCP's are in
 * api/ApprovalRequiredTest): the Causes page's "Redrive this cause" and the entries page's
 * "Redrive everything this filter selects" post the same form, which proposes and moves nothing.
 */
@QuarkusTest
@TestProfile(ApprovalProfile.class)
class ApprovalRequiredFormsTest {

    @Inject
    @Own("appr")
    TestQueue appr;

    @Test
    void aRedriveFormMakesAProposalAndMovesNothing() {
        String origin = "{appr}forms";
        DeadLetterSeed.parkMany(appr.redis(), appr.dlq(), origin, 4);
        int parked = appr.deadLetters().size();
        long tasks = appr.redis().key().keys(RedisKeys.redriveTask(appr.dlq(), "*")).size();
        ConsoleClient operator = ConsoleClient.login("operator");
        redrive(operator, Map.of("origin", origin, "dryRun", "false", "maxPerSecond", "0")).then().statusCode(303).header("Location", containsString(ConsoleUrls.proposals(appr.dlq()) + "/"));
        redrive(operator, Map.of("all", "true", "dryRun", "false")).then().statusCode(303).header("Location", containsString(ConsoleUrls.proposals(appr.dlq()) + "/"));

        assertEquals(tasks, appr.redis().key().keys(RedisKeys.redriveTask(appr.dlq(), "*")).size(), "no task started");
        assertEquals(parked, appr.deadLetters().size(), "nothing moved");
        assertEquals(0, appr.streams().all(origin).size(), "nothing moved");
    }

    /** The redrive form's post, as the console sends it (the stream's name encoded once, as its pages link it). */
    private Response redrive(ConsoleClient operator, Map<String, String> form) {
        return operator.request().urlEncodingEnabled(false).contentType("application/x-www-form-urlencoded")
                .formParams(form).formParam(ConsoleClient.CSRF_FIELD, operator.csrf)
                .post(ConsoleUrls.stream(appr.dlq()) + "/redrives");
    }
}
