package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Proposed redrives on a real redis-server: nothing moves until a second operator approves; the
 * approval starts the redrive exactly as proposed; a proposal is decided once, expires, and is
 * never applied twice.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ProposalApiTest {

    @Inject
    @Own("props")
    TestQueue props;

    static String body(String origin, String extra) {
        return "{\"filter\": {\"origin\": \"" + origin + "\"}" + extra + "}";
    }

    JsonPath propose(String user, String body) {
        return as(user).contentType("application/json").body(body).post(props.dlqPath() + "/proposals").then().statusCode(201)
                .body("state", equalTo("proposed")).extract().jsonPath();
    }

    long parkedFrom(String origin) {
        return props.deadLetters().stream()
                .filter(m -> origin.equals(new String(m.payload().get("origin-stream"), StandardCharsets.UTF_8))).count();
    }

    @Test
    void aProposalMovesNothingUntilASecondOperatorApprovesItThenRunsExactlyAsProposed() {
        DeadLetterSeed.parkMany(props.redis(), props.dlq(), "{props}proposed", 30);
        JsonPath p = propose("automation", body("{props}proposed", ", \"maxPerSecond\": 7, \"canary\": 0, "
                + "\"maxRefailRate\": 0.25, \"note\": \"provider fixed\""));
        String id = p.getString("id");
        assertEquals(30, p.getLong("matched"));
        assertEquals(true, p.getBoolean("matchedComplete"));
        assertEquals("automation", p.getString("proposedBy"));
        assertNotNull(p.getString("expiresAt"));
        assertNull(p.getString("task"));
        assertEquals(0, props.streams().all("{props}proposed").size(), "nothing moved on a proposal");
        assertEquals(30, parkedFrom("{props}proposed"));

        as("viewer").get(props.dlqPath() + "/proposals/" + id).then().statusCode(200).body("state", equalTo("proposed"))
                .body("note", equalTo("provider fixed"));
        as("viewer").get(props.dlqPath() + "/proposals").then().statusCode(200).body("items[0].id", equalTo(id));
        // only an operator decides, and the proposer never
        problem(as("viewer").post(props.dlqPath() + "/proposals/" + id + "/approve").then(), 403);
        problem(as("automation").post(props.dlqPath() + "/proposals/" + id + "/approve").then(), 403);
        assertEquals(0, props.streams().all("{props}proposed").size(), "nothing moved on a refused approval");

        JsonPath approved = as("operator").contentType("application/json").body("{\"note\": \"checked\"}")
                .post(props.dlqPath() + "/proposals/" + id + "/approve").then().statusCode(202).body("state", equalTo("approved"))
                .body("decidedBy", equalTo("operator")).body("decisionNote", equalTo("checked")).extract().jsonPath();
        String task = approved.getString("task");
        JsonPath status = as("viewer").get(props.dlqPath() + "/redrives/" + task).then().statusCode(200).extract().jsonPath();
        assertEquals(7, status.getInt("maxPerSecond"), "the pace as proposed");
        assertEquals(0.25, status.getDouble("maxRefailRate"), 0.0);
        assertEquals("operator", status.getString("createdBy"));
        Await.until("the approved redrive to complete",
                () -> "completed".equals(as("viewer").get(props.dlqPath() + "/redrives/" + task).jsonPath().getString("state")));
        assertEquals(30, props.streams().all("{props}proposed").size());
        assertEquals(0, parkedFrom("{props}proposed"));

        // decided once
        problem(as("approver").post(props.dlqPath() + "/proposals/" + id + "/approve").then(), 409);
        problem(as("approver").post(props.dlqPath() + "/proposals/" + id + "/reject").then(), 409);
        List<String> actions = props.streams().all(props.dlq() + ":audit").stream()
                .filter(m -> id.equals(text(m.payload().get("proposal"))))
                .map(m -> text(m.payload().get("action")) + " " + text(m.payload().get("actor"))).toList();
        assertEquals(List.of("proposal automation", "proposal-approve operator", "redrive operator"), actions);
    }

    @Test
    void twoApproversAtOnceStartOneTask() throws Exception {
        DeadLetterSeed.parkMany(props.redis(), props.dlq(), "{props}approved", 20);
        for (int round = 0; round < 5; round++) {
            String id = propose("automation", body("{props}approved", ", \"maxPerSecond\": 0")).getString("id");
            ExecutorService pool = Executors.newFixedThreadPool(2);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Response>> answers = new ArrayList<>();
            for (String approver : List.of("operator", "approver")) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return as(approver).post(props.dlqPath() + "/proposals/" + id + "/approve");
                }));
            }
            go.countDown();
            List<Integer> codes = new ArrayList<>();
            for (Future<Response> a : answers) {
                codes.add(a.get().statusCode());
            }
            pool.shutdown();
            codes.sort(null);
            assertEquals(List.of(202, 409), codes, "one approval wins, round " + round);
            String task = as("viewer").get(props.dlqPath() + "/proposals/" + id).jsonPath().getString("task");
            Await.until("the task to finish",
                    () -> "completed".equals(as("viewer").get(props.dlqPath() + "/redrives/" + task).jsonPath().getString("state")));
        }
        // the first round moved all 20; each later one found none left: never applied twice
        assertEquals(20, props.streams().all("{props}approved").size());
    }

    @Test
    void theCanaryIsCarriedIntoTheApprovedTask() {
        String id = propose("operator", body("{props}nothing-here", ", \"canary\": 2, \"maxPerSecond\": 3")).getString("id");
        String task = as("approver").post(props.dlqPath() + "/proposals/" + id + "/approve").then().statusCode(202).extract()
                .path("task");
        JsonPath status = as("viewer").get(props.dlqPath() + "/redrives/" + task).then().statusCode(200).extract().jsonPath();
        assertEquals(2, status.getInt("canary"));
        assertEquals(3, status.getInt("maxPerSecond"));
        Await.until("the empty redrive to end",
                () -> "completed".equals(as("viewer").get(props.dlqPath() + "/redrives/" + task).jsonPath().getString("state")));
    }

    /**
     * The scripts check the key types before they write: with the stream's waiting set holding
     * another type, proposing, approving and rejecting are each refused whole (409) and nothing is
     * written: no proposal indexed, none decided, no redrive started.
     */
    @Test
    void aWaitingSetOfAnotherTypeRefusesEachStepBeforeItWrites() {
        String id = propose("operator", body("{props}wrong-type", "")).getString("id");
        String waiting = RedisKeys.waitingProposals(props.dlq());
        var keys = props.redis().key();
        keys.rename(waiting, waiting + "-saved");
        props.redis().value(String.class).set(waiting, "not a sorted set");
        long proposals = props.redis().sortedSet(String.class).zcard(RedisKeys.proposals(props.dlq()));
        try {
            for (String step : List.of("approve", "reject")) {
                as("approver").post(props.dlqPath() + "/proposals/" + id + "/" + step).then().statusCode(409)
                        .body("type", equalTo("/problems/wrong-key-type"));
            }
            as("operator").contentType("application/json").body(body("{props}wrong-type", "")).post(props.dlqPath() + "/proposals")
                    .then().statusCode(409).body("type", equalTo("/problems/wrong-key-type"));
            as("viewer").get(props.dlqPath() + "/proposals/" + id).then().statusCode(200).body("state", equalTo("proposed"));
            assertEquals(proposals, props.redis().sortedSet(String.class).zcard(RedisKeys.proposals(props.dlq())));
        } finally {
            keys.del(waiting);
            keys.rename(waiting + "-saved", waiting);
        }
        as("approver").post(props.dlqPath() + "/proposals/" + id + "/reject").then().statusCode(200);
    }

    @Test
    void aRejectedProposalMovesNothingAndIsDecided() {
        String id = propose("operator", body("{props}nothing-here", "")).getString("id");
        problem(as("operator").post(props.dlqPath() + "/proposals/" + id + "/reject").then(), 403);
        as("approver").contentType("application/json").body("{\"note\": \"not yet\"}")
                .post(props.dlqPath() + "/proposals/" + id + "/reject").then().statusCode(200).body("state", equalTo("rejected"))
                .body("decidedBy", equalTo("approver"));
        problem(as("operator").post(props.dlqPath() + "/proposals/" + id + "/approve").then(), 409);
    }

    @Test
    void aBadProposalIsRefusedWhole() {
        problem(as("viewer").contentType("application/json").body("{}").post(props.dlqPath() + "/proposals").then(), 403);
        problem(as("operator").contentType("application/json").body("{\"dryRun\": true}").post(props.dlqPath() + "/proposals").then(), 400);
        problem(as("operator").contentType("application/json").body("{\"filter\": {\"origin\": null}}")
                .post(props.dlqPath() + "/proposals").then(), 400);
        problem(as("viewer").get(props.dlqPath() + "/proposals/not-an-id").then(), 400);
        problem(as("viewer").get(props.dlqPath() + "/proposals/00000000-0000-0000-0000-000000000000").then(), 404);
    }

    static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
