package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.JwtIssuer;
import dev.redrive.testing.McpClients;
import dev.redrive.testing.Own;
import dev.redrive.testing.ProposalExpiry;
import dev.redrive.testing.SettableClock;
import dev.redrive.testing.TestQueue;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;

/**
 * What a proposal's decision rests on, so four eyes hold: the approved redrive moves what was
 * proposed and nothing parked since; expiry and the decision's time are Redis' clock, not the
 * deciding process's; two spellings of one name are one person; each step is audited in the same
 * script that takes it, which checks the audit stream's type before it writes.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ProposalDecisionsTest {

    @Inject
    @Own("props")
    TestQueue props;

    @Inject
    SettableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    JsonPath propose(RequestSpecification who, String origin) {
        return who.urlEncodingEnabled(false).contentType("application/json")
                .body("{\"filter\": {\"origin\": \"" + origin + "\"}, \"maxPerSecond\": 0}")
                .post(props.dlqPath() + "/proposals").then().statusCode(201).extract().jsonPath();
    }

    String proposal(String id) {
        return props.dlqPath() + "/proposals/" + id;
    }

    long parkedFrom(String origin) {
        return props.deadLetters().stream()
                .filter(m -> origin.equals(new String(m.payload().get("origin-stream"), StandardCharsets.UTF_8))).count();
    }

    /** The audit records about the proposal, oldest first, as "action actor". */
    List<String> audited(String id) {
        return props.streams().all(RedisKeys.audit(props.dlq())).stream()
                .filter(m -> id.equals(text(m.payload().get("proposal"))))
                .map(m -> text(m.payload().get("action")) + " " + text(m.payload().get("actor"))).toList();
    }

    @Test
    void anApprovalMovesWhatWasProposedAndSaysWhatWasParkedSince() {
        String origin = "{props}frozen";
        DeadLetterSeed.parkMany(props.redis(), props.dlq(), origin, 12);
        String id = propose(as("automation"), origin).getString("id");
        as("viewer").get(proposal(id)).then().statusCode(200).body("matched", equalTo(12))
                .body("parkedSince.count", equalTo(0));
        DeadLetterSeed.parkMany(props.redis(), props.dlq(), origin, 20);
        as("viewer").get(proposal(id)).then().statusCode(200).body("matched", equalTo(12))
                .body("parkedSince.count", equalTo(20)).body("parkedSince.complete", equalTo(true))
                .body("parkedSince.detail", containsString("propose again to include them"));

        String task = as("operator").post(proposal(id) + "/approve").then().statusCode(202).extract().path("task");
        Await.until("the approved redrive to complete",
                () -> "completed".equals(as("viewer").get(props.dlqPath() + "/redrives/" + task).jsonPath().getString("state")));
        assertEquals(12, props.streams().all(origin).size(), "the 12 proposed moved");
        assertEquals(20, parkedFrom(origin), "the 20 parked after the proposal stay parked");
        as("viewer").get(props.dlqPath() + "/redrives/" + task).then().body("matched", equalTo(12));
        // every step audited, the approved redrive's start as a redrive
        assertEquals(List.of("proposal automation", "proposal-approve operator", "redrive operator"), audited(id));
    }

    @Test
    void expiryAndTheDecisionsTimeAreRedisClockNotTheDecidingProcesss() {
        String origin = "{props}clock";
        String waiting = propose(as("operator"), origin).getString("id");
        clock.advance(Duration.ofHours(25)); // a process a day ahead does not expire it
        as("viewer").get(proposal(waiting)).then().statusCode(200).body("state", equalTo("proposed"));
        clock.reset();
        clock.advance(Duration.ofHours(-1)); // nor does one an hour behind decide it before it was made
        JsonPath approved = as("approver").post(proposal(waiting) + "/approve").then().statusCode(202).extract().jsonPath();
        assertFalse(Instant.parse(approved.getString("decidedAt")).isBefore(Instant.parse(approved.getString("proposedAt"))),
                approved.prettify());

        // Its time passed on Redis' clock: a process an hour behind sees it expired and decides it no more.
        String expired = propose(as("operator"), origin).getString("id");
        ProposalExpiry.expire(props.redis(), props.dlq(), List.of(expired));
        as("viewer").get(proposal(expired)).then().statusCode(200).body("state", equalTo("expired"));
        as("approver").post(proposal(expired) + "/approve").then().statusCode(409).body("type", equalTo("/problems/proposal-decided"));
        as("approver").post(proposal(expired) + "/reject").then().statusCode(409).body("type", equalTo("/problems/proposal-decided"));
        assertNull(as("viewer").get(proposal(expired)).jsonPath().getString("task"));
    }

    @Test
    void twoSpellingsOfOneNameAreOnePerson() {
        String id = propose(given().auth().oauth2(JwtIssuer.token("Operator ", "dlq-operator")), "{props}names").getString("id");
        as("operator").post(proposal(id) + "/approve").then().statusCode(403).body("type", equalTo("/problems/own-proposal"));
        given().auth().oauth2(JwtIssuer.token("OPERATOR", "dlq-operator")).urlEncodingEnabled(false)
                .contentType("application/json").post(proposal(id) + "/reject").then().statusCode(403).body("type", equalTo("/problems/own-proposal"));
        as("approver").post(proposal(id) + "/reject").then().statusCode(200).body("state", equalTo("rejected"));
    }

    /**
     * With the audit stream's key holding a string, proposing, approving, rejecting and starting a
     * redrive are each refused whole before they write (no proposal stored, none decided, no redrive
     * started), and
     * every read of the trail (REST, MCP) says what is wrong instead of failing.
     */
    @Test
    void anAuditKeyOfAnotherTypeRefusesEachStepBeforeItWritesAndReadsSaySo() {
        String id = propose(as("operator"), "{props}audit-type").getString("id");
        String audit = RedisKeys.audit(props.dlq());
        var keys = props.redis().key();
        keys.rename(audit, audit + "-saved");
        props.redis().value(String.class).set(audit, "not a stream");
        long proposals = props.redis().sortedSet(String.class).zcard(RedisKeys.proposals(props.dlq()));
        var tasks = keys.keys(RedisKeys.redriveTask(props.dlq(), "*"));
        try {
            as("operator").contentType("application/json").body("{\"filter\": {\"origin\": \"{props}audit-type\"}}")
                    .post(props.dlqPath() + "/proposals").then().statusCode(409).body("type", equalTo("/problems/wrong-key-type"));
            // a redrive started directly, real or dry run, is audited in its starting script too
            for (String dryRun : List.of("false", "true")) {
                as("operator").body("{\"filter\": {\"origin\": \"{props}audit-type\"}, \"dryRun\": " + dryRun + "}")
                        .post(props.dlqPath() + "/redrives").then().statusCode(409)
                        .body("type", equalTo("/problems/wrong-key-type"));
            }
            for (String step : List.of("approve", "reject")) {
                as("approver").post(proposal(id) + "/" + step).then().statusCode(409)
                        .body("type", equalTo("/problems/wrong-key-type"));
            }
            as("viewer").get(proposal(id)).then().statusCode(200).body("state", equalTo("proposed"));
            assertEquals(proposals, props.redis().sortedSet(String.class).zcard(RedisKeys.proposals(props.dlq())));
            assertEquals(tasks, keys.keys(RedisKeys.redriveTask(props.dlq(), "*")), "no redrive started");
            as("viewer").get(props.dlqPath() + "/audit").then().statusCode(409).body("type", equalTo("/problems/wrong-key-type"));
            McpClients.as("viewer", client -> {
                McpSchema.CallToolResult read = client.callTool(new McpSchema.CallToolRequest("get_audit", Map.of("dlq", props.dlq())));
                assertEquals(409, ((Map<?, ?>) read.structuredContent()).get("status"), read.toString());
            });
        } finally {
            keys.del(audit);
            keys.rename(audit + "-saved", audit);
        }
        as("approver").post(proposal(id) + "/reject").then().statusCode(200);
    }

    private static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
