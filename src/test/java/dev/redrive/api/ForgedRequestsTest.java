package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Browser;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.ForeignPage;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;

/**
 * No request a web page can forge changes anything through the API or /mcp (api/ApiWrites): a
 * state change must say it is JSON (415 otherwise, before anything else: a page sends text/plain
 * or nothing cross-site without a preflight) and must not come from another origin (403), however
 * it is authenticated. The browser case is the real one: Debian's chromium holding the operator's
 * Basic credentials, and a page on another port of the same host.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ForgedRequestsTest {

    static final String TARGET = "{forge}back";
    static final String PROPOSE = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": "
            + "\"propose_redrive\", \"arguments\": {\"dlq\": \"{forge}:dlq\", \"maxPerSecond\": 0}}}";

    final Browser browser = Browser.session();

    @Inject
    @Own("forge")
    TestQueue forge;

    String redrives() {
        return forge.dlqPath() + "/redrives";
    }

    /** What a forged request could have changed: tasks, proposals, the audit trail, the parked entries. */
    List<Object> state() {
        var keys = forge.redis().key();
        return List.of(keys.keys(RedisKeys.redriveTask(forge.dlq(), "*")), keys.keys(RedisKeys.proposal(forge.dlq(), "*")),
                forge.redis().stream(String.class).xlen(RedisKeys.audit(forge.dlq())), forge.deadLetters().size(),
                forge.streams().all(TARGET).size());
    }

    String proposal() {
        return as("automation").body("{\"filter\": {\"origin\": \"" + TARGET + "\"}}").post(forge.dlqPath() + "/proposals")
                .then().statusCode(201).extract().path("id");
    }

    @Test
    void aStateChangeThatIsNotJsonIsRefusedBeforeAnythingHappens() {
        DeadLetterSeed.parkMany(forge.redis(), forge.dlq(), TARGET, 3);
        String approve = forge.dlqPath() + "/proposals/" + proposal() + "/approve";
        List<Object> before = state();
        for (RequestSpecification r : List.of(as("operator").contentType("text/plain").body("{\"maxPerSecond\": 0}"),
                as("operator").contentType("application/x-www-form-urlencoded").body("maxPerSecond=0"), as("operator").noContentType())) {
            r.post(redrives()).then().statusCode(415).body("type", equalTo("/problems/not-json"));
        }
        as("approver").noContentType().post(approve).then().statusCode(415);
        as("approver").contentType("text/plain").post(approve).then().statusCode(415);
        as("automation").contentType("text/plain").body(PROPOSE).post("/mcp").then().statusCode(415);
        // 415 comes first: not even the credentials are looked at
        io.restassured.RestAssured.given().urlEncodingEnabled(false).contentType("text/plain").post(redrives()).then()
                .statusCode(415);
        assertEquals(before, state(), "nothing changed");
    }

    @Test
    void aStateChangeFromAnotherOriginIsRefusedAndTheOwnOrAnAllowedOneIsNot() {
        DeadLetterSeed.parkMany(forge.redis(), forge.dlq(), TARGET, 2);
        String approve = forge.dlqPath() + "/proposals/" + proposal() + "/approve";
        List<Object> before = state();
        for (RequestSpecification r : List.of(as("operator").header("Origin", "http://localhost:1"),
                as("operator").header("Origin", "null"), as("operator").header("Sec-Fetch-Site", "same-site"),
                as("operator").header("Sec-Fetch-Site", "cross-site").header("Origin", "https://evil.example"))) {
            r.body("{\"maxPerSecond\": 0}").post(redrives()).then().statusCode(403).body("type", equalTo("/problems/cross-site-request"));
        }
        as("approver").header("Origin", "http://localhost:1").post(approve).then().statusCode(403);
        as("operator").header("Origin", "http://localhost:1").delete(forge.dlqPath() + "/entries/1-1?reason=forged").then()
                .statusCode(403);
        // /mcp checks every request's Origin, reads included
        as("viewer").header("Origin", "http://localhost:1").body("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}")
                .post("/mcp").then().statusCode(403);
        as("viewer").header("Origin", "http://localhost:1").get("/mcp").then().statusCode(403);
        // a reveal is a GET that audits in the caller's name: an <img> of another page must not make one
        as("operator").header("Sec-Fetch-Site", "cross-site").get(forge.dlqPath() + "/entries/1-1?reveal=true").then()
                .statusCode(403).body("type", equalTo("/problems/cross-site-request"));
        assertEquals(before, state(), "nothing changed");

        // the service's own origin, and the allowed one, change things
        as("operator").header("Origin", Browser.base()).header("Sec-Fetch-Site", "same-origin").body("{\"dryRun\": true}")
                .post(redrives()).then().statusCode(202);
        as("approver").header("Origin", ApiProfile.ALLOWED_ORIGIN).header("Sec-Fetch-Site", "cross-site").post(approve)
                .then().statusCode(202).body("state", equalTo("approved"));
    }

    /**
     * The operator opened the API in this browser once, so the browser holds their Basic
     * credentials for its origin and sends them with any request to it, a no-cors fetch from
     * another page included. That page, on another port, tries a redrive, a proposal through
     * /mcp and an approval, each as a page can send it: nothing moves.
     */
    @Test
    void aPageOnAnotherPortMovesNothingWithTheOperatorsCachedCredentials() {
        DeadLetterSeed.parkMany(forge.redis(), forge.dlq(), TARGET, 4);
        String approve = Browser.base() + forge.dlqPath() + "/proposals/" + proposal() + "/approve";
        browser.open(Browser.base().replace("http://", "http://operator:" + ApiUsers.password("operator") + "@") + "/dlq");
        browser.until(d -> d.findElement(By.tagName("body")).getText().contains(forge.dlq()));
        List<Object> before = state();

        ForeignPage.visit(browser, List.of(ForeignPage.Fetch.post(Browser.base() + redrives(), "{\"maxPerSecond\": 0}"),
                ForeignPage.Fetch.post(Browser.base() + "/mcp", PROPOSE), ForeignPage.Fetch.post(approve, null)));

        assertEquals(before, state(), "nothing moved, nothing proposed, approved or audited");
        // the credentials were still there to be sent: the API answers this browser as the operator
        browser.open(Browser.base() + "/dlq");
        assertTrue(browser.until(d -> d.findElement(By.tagName("body")).getText()).contains(forge.dlq()));
        as("viewer").get(approve.substring(Browser.base().length(), approve.length() - "/approve".length())).then()
                .body("state", equalTo("proposed")).body("id", containsString("-"));
    }
}
