package dev.redrive.console;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * What a console POST must be before it changes anything (console/ConsoleWrites, quarkus-rest-csrf
 * and the forms' required fields): a request with the operator's cookies but no form, from another
 * origin, or missing a field it needs changes nothing.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ConsoleWritesTest {

    @TestHTTPResource("/")
    URL root;

    @Inject
    @Own("till")
    TestQueue till;

    /** The queue's dead-letter stream in the console (its name needs no escaping). */
    String path() {
        return "/console/dlq/" + till.dlq();
    }

    String park(String order) {
        return till.awaitParked(till.add(Map.of("cause", "timeout", "order", order, "card", "4111-" + order)));
    }

    /** What nothing may change: the dead letters, the audit trail and the redrive tasks of the stream. */
    List<Object> state() {
        return List.of(till.deadLetters().stream().map(StreamMessage::id).toList(),
                till.redis().stream(String.class, String.class, String.class).xlen(RedisKeys.audit(till.dlq())),
                till.redis().key(String.class).keys(RedisKeys.redriveTask(till.dlq(), "*")));
    }

    /** curl -X POST -H 'Content-Type:' with the operator's cookies: no body, no type, no token. */
    int bare(ConsoleClient client, String path) throws Exception {
        HttpRequest post = HttpRequest.newBuilder(URI.create(root.toString().replaceAll("/$", "") + path))
                .header("Cookie", client.cookieHeader())
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        return HttpClient.newHttpClient().send(post, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void aBodilessPostWithTheOperatorsCookiesIsNotAFormAndChangesNothing() throws Exception {
        String id = park("1");
        ConsoleClient operator = ConsoleClient.login("operator");
        List<Object> before = state();
        for (String path : List.of(path() + "/redrives", path() + "/redrives/00000000-0000-0000-0000-000000000000/cancel",
                path() + "/entries/" + id + "/reveal", path() + "/entries/" + id + "/discard",
                path() + "/entries/" + id + "/replay", "/console/logout")) {
            assertEquals(415, bare(operator, path), path);
        }
        operator.request().contentType("application/json").body("{}").post(path() + "/redrives").then().statusCode(415)
                .body("type", equalTo("/problems/not-a-form"));
        assertEquals(before, state(), "no redrive, no reveal, no discard, no replay");
        operator.get("/console").then().statusCode(200); // still logged in
    }

    @Test
    void aFormFromAnotherOriginIsRefusedEvenWithTheToken() {
        String id = park("2");
        ConsoleClient operator = ConsoleClient.login("operator");
        List<Object> before = state();
        Map<String, String> discard = Map.of("reason", "forged");
        // Another port of the same host is the same site (its requests carry SameSite=Strict cookies) but not the same origin.
        operator.request().header("Sec-Fetch-Site", "same-site").contentType(ConsoleWrites.FORM).formParams(discard)
                .formParam(ConsoleClient.CSRF_FIELD, operator.csrf).post(path() + "/entries/" + id + "/discard")
                .then().statusCode(403).body("type", equalTo("/problems/cross-site-request"));
        operator.request().header("Origin", "http://localhost:1").contentType(ConsoleWrites.FORM).formParams(discard)
                .formParam(ConsoleClient.CSRF_FIELD, operator.csrf).post(path() + "/entries/" + id + "/discard")
                .then().statusCode(403);
        operator.request().header("Origin", "null").contentType(ConsoleWrites.FORM).formParams(discard)
                .formParam(ConsoleClient.CSRF_FIELD, operator.csrf).post(path() + "/entries/" + id + "/discard")
                .then().statusCode(403);
        assertEquals(before, state());
        // The console's own origin passes.
        operator.request().header("Origin", root.getProtocol() + "://" + root.getAuthority()).header("Sec-Fetch-Site", "same-origin")
                .contentType(ConsoleWrites.FORM).formParams(discard).formParam(ConsoleClient.CSRF_FIELD, operator.csrf)
                .post(path() + "/entries/" + id + "/discard").then().statusCode(303);
    }

    @Test
    void aRedriveFormMustSayDryRunOrNotAndAllToSelectEverything() {
        park("3");
        ConsoleClient operator = ConsoleClient.login("operator");
        List<Object> before = state();
        operator.post(path() + "/redrives", Map.of()).then().statusCode(400);
        operator.post(path() + "/redrives", Map.of("text", "timed out")).then().statusCode(400); // no dryRun
        operator.post(path() + "/redrives", Map.of("text", "timed out", "dryRun", "yes")).then().statusCode(400);
        operator.post(path() + "/redrives", Map.of("dryRun", "false")).then().statusCode(400); // no criterion, no all=true
        operator.post(path() + "/redrives", Map.of("dryRun", "true", "all", "yes")).then().statusCode(400);
        operator.post(path() + "/redrives", Map.of("dryRun", "true", "all", "true", "text", "x")).then().statusCode(400);
        assertEquals(before, state());
        operator.post(path() + "/redrives", Map.of("dryRun", "true", "all", "true")).then().statusCode(303);
    }

    @Test
    void aRepeatedParameterOrAnEmptyConfirmKeyIsRefusedInTheConsoleToo() {
        String id = park("4");
        ConsoleClient viewer = ConsoleClient.login("viewer");
        viewer.get(path() + "/entries?origin=a&origin=b").then().statusCode(400)
                .body("type", equalTo("/problems/ambiguous-request"));
        ConsoleClient operator = ConsoleClient.login("operator");
        List<Object> before = state();
        operator.post(path() + "/entries/" + id + "/replay", Map.of("confirm", "yes", "key", "")).then().statusCode(400)
                .body("type", equalTo("/problems/ambiguous-request"));
        operator.post(path() + "/entries/" + id + "/replay", Map.of("confirm", "yes")).then().statusCode(400);
        assertEquals(before, state(), "not replayed");
    }

    /**
     * The console's discard and confirm key follow the replay's rules (deadletter/Replays), as the
     * API's do (DeadLetterApiTest, ReplayApiTest, AmbiguousRequestsTest): a reason is kept without the white space
     * around it and may then be 2000 characters; a key is 1 to 200 characters.
     */
    @Test
    void theConsolesReasonAndKeyFollowTheApisRules() {
        String id = park("5");
        ConsoleClient operator = ConsoleClient.login("operator");
        List<Object> before = state();
        operator.post(path() + "/entries/" + id + "/replay", Map.of("confirm", "yes", "key", "k".repeat(201)))
                .then().statusCode(400).body("type", equalTo("/problems/ambiguous-request"));
        operator.post(path() + "/entries/" + id + "/discard", Map.of("reason", "\n \t")).then().statusCode(400);
        operator.post(path() + "/entries/" + id + "/discard", Map.of("reason", "r".repeat(2001))).then().statusCode(400);
        assertEquals(before, state(), "neither replayed nor discarded");
        String reason = "r".repeat(2000);
        operator.post(path() + "/entries/" + id + "/discard", Map.of("reason", " " + reason + "\n")).then().statusCode(303);
        List<StreamMessage<String, String, String>> trail = till.redis().stream(String.class, String.class, String.class)
                .xrange(RedisKeys.audit(till.dlq()), io.quarkus.redis.datasource.stream.StreamRange.of("-", "+"));
        StreamMessage<String, String, String> audit = trail.get(trail.size() - 1);
        assertEquals(List.of("discard", reason), List.of(audit.payload().get("action"), audit.payload().get("note")));
    }

    @Test
    void theLoginFormCarriesATokenAndTheCsrfCookieIsStrict() {
        io.restassured.response.Response page = given().get("/console/login");
        String csrf = page.cookie(ConsoleClient.CSRF);
        String setCookie = page.headers().getValues("Set-Cookie").stream()
                .filter(c -> c.startsWith(ConsoleClient.CSRF + "=")).findFirst().orElseThrow();
        assertTrue(setCookie.contains("SameSite=Strict"), setCookie);
        assertTrue(page.asString().contains("j_security_check?csrf-token=" + csrf), page.asString());
        // A login without the page's token (a forged login into the attacker's account) is refused.
        given().redirects().follow(false).contentType(ConsoleWrites.FORM).formParam("j_username", "operator")
                .formParam("j_password", "operator-pw").post("/console/j_security_check").then().statusCode(403);
        given().redirects().follow(false).cookie(ConsoleClient.CSRF, csrf).queryParam(ConsoleClient.CSRF_FIELD, "AAAA")
                .contentType(ConsoleWrites.FORM).formParam("j_username", "operator").formParam("j_password", "operator-pw")
                .post("/console/j_security_check").then().statusCode(403);
        assertEquals(302, ConsoleClient.loginResponse("operator", "operator-pw").statusCode());
    }
}
