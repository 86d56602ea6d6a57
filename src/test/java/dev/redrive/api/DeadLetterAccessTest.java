package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApprovalProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Who may call the operator API, on a real redis-server: no credentials, a viewer, automation
 * while switched off; the management port open to all, and every operation declaring its problem
 * answers.
 */
@QuarkusTest
@TestProfile(ApprovalProfile.class)
class DeadLetterAccessTest {

    @Inject
    @Own("access")
    TestQueue access;

    @Test
    void everyEndpointRefusesCallsWithoutCredentials() {
        String id = access.parkedJob(Map.of("payload", "a"));
        problem(given().urlEncodingEnabled(false).get("/dlq").then(), 401);
        problem(given().urlEncodingEnabled(false).get(access.dlqPath() + "/entries").then(), 401);
        problem(given().urlEncodingEnabled(false).get(access.dlqPath() + "/entries/" + enc(id)).then(), 401);
        problem(given().urlEncodingEnabled(false).get(access.dlqPath() + "/audit").then(), 401);
        problem(given().urlEncodingEnabled(false).contentType("application/json").post(access.dlqPath() + "/entries/"
                + enc(id) + "/replay").then(), 401);
        problem(given().urlEncodingEnabled(false).delete(access.dlqPath() + "/entries/" + enc(id) + "?reason=x").then(), 401);
        problem(given().urlEncodingEnabled(false).contentType("application/json").body("{}").post(access.dlqPath() + "/redrives").then(), 401);
        given().auth().preemptive().basic("operator", "wrong").get("/dlq").then().statusCode(401);
        assertTrue(access.parked(access.originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void viewerReadsButEveryWriteIsForbidden() {
        String id = access.parkedJob(Map.of("payload", "b"));
        as("viewer").get("/dlq").then().statusCode(200).body("name", hasItem(access.dlq()));
        as("viewer").get(access.dlqPath() + "/entries").then().statusCode(200);
        as("viewer").get(access.dlqPath() + "/entries/" + enc(id)).then().statusCode(200);
        as("viewer").get(access.dlqPath() + "/audit").then().statusCode(200);
        problem(as("viewer").post(access.dlqPath() + "/entries/" + enc(id) + "/replay").then(), 403);
        problem(as("viewer").delete(access.dlqPath() + "/entries/" + enc(id) + "?reason=x").then(), 403);
        problem(as("viewer").contentType("application/json").body("{\"dryRun\":true}")
                .post(access.dlqPath() + "/redrives").then(), 403);
        problem(as("viewer").delete(access.dlqPath() + "/redrives/" + enc("0c1d6b0e-6c57-4a3c-9b43-0d6f5c2a0f11")).then(), 403);
        assertTrue(access.parked(access.originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void automationMayNotReplayWhileSwitchedOff() {
        String id = access.parkedJob(Map.of("payload", "c"));
        as("automation").get(access.dlqPath() + "/entries/" + enc(id)).then().statusCode(200);
        problem(as("automation").post(access.dlqPath() + "/entries/" + enc(id) + "/replay").then(), 403);
        problem(as("automation").delete(access.dlqPath() + "/entries/" + enc(id) + "?reason=x").then(), 403);
        as("automation").post(access.dlqPath() + "/entries/" + enc(id) + "/replay").then()
                .body("type", equalTo("/problems/automation-disabled"));
        assertTrue(access.parked(access.originOf(id)).isPresent(), "nothing changed");
    }

    @Test
    void metricsHealthAndOpenApiNeedNoCredentialsOnTheManagementPort() {
        String dlqId = access.parkedJob(Map.of("payload", "metric"));
        as("operator").post(access.dlqPath() + "/entries/" + enc(dlqId) + "/replay").then().statusCode(201);
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        String metrics = given().port(port).get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("redrive_dlq_replayed_total{dlq=\"" + access.dlq() + "\"}"), "replayed counter");
        given().port(port).get("/q/health/live").then().statusCode(200);
        given().port(port).get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.keySet()", hasItem("/dlq/{dlq}/entries/{id}/replay"));
    }

    /**
     * The problem responses are declared once (ApiDocs, applied by ProblemResponses): every
     * operation of the operator API still declares its 401, 403 and 503 as problem+json, a read
     * its busy 503 with Retry-After, and every other 4xx a problem too.
     */
    @Test
    void everyOperationDeclaresItsProblemResponses() {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        Map<String, Map<String, Map<String, Object>>> paths = given().port(port).get("/q/openapi?format=json").then()
                .statusCode(200).extract().jsonPath().getMap("paths");
        List<String> missing = new ArrayList<>();
        int operations = 0;
        for (var path : paths.entrySet()) {
            if (!path.getKey().startsWith("/dlq")) {
                continue;
            }
            for (var operation : path.getValue().entrySet()) {
                operations++;
                String name = operation.getKey() + " " + path.getKey();
                @SuppressWarnings("unchecked")
                Map<String, Map<String, Object>> responses = (Map<String, Map<String, Object>>) operation.getValue()
                        .get("responses");
                for (String code : List.of("401", "403", "503")) {
                    if (!responses.containsKey(code)) {
                        missing.add(name + " declares no " + code);
                    }
                }
                responses.forEach((code, response) -> {
                    if (code.matches("[45]\\d\\d") && !String.valueOf(response.get("content")).contains("problem+json")) {
                        missing.add(name + ": " + code + " is no problem+json");
                    }
                });
                boolean read = name.startsWith("get /dlq/{dlq}/entries") || name.equals("get /dlq/{dlq}/audit");
                if (read != String.valueOf(responses.get("503").get("headers")).contains("Retry-After")) {
                    missing.add(name + ": 503 " + (read ? "without" : "with") + " the busy Retry-After header");
                }
            }
        }
        assertEquals(15, operations, "operations of the operator API");
        assertEquals(List.of(), missing);
    }
}
