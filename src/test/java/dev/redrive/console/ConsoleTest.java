package dev.redrive.console;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * The console's server side, page by page and action by action, over plain HTTP: who may see and
 * do what, that every state-changing request needs its CSRF token, that the API keeps answering
 * as before, and that actions go through the same code and audit trail as the API.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ConsoleTest {

    @Inject
    @Own("desk")
    TestQueue desk;

    /** The queue's dead-letter stream in the console (its name needs no escaping). */
    String path() {
        return "/console/dlq/" + desk.dlq();
    }

    /** Parks one job of {@code cause} through the real worker and park script; returns its dead-letter id. */
    String park(String cause, String order) {
        String originId = desk.add(Map.of("cause", cause, "order", order, "card", "4111-" + order,
                "payload", "{\"order\":" + order + ",\"items\":[1,2]}"));
        return desk.awaitParked(originId);
    }

    List<Map<String, String>> audit() {
        return desk.redis().stream(String.class, String.class, String.class).xrange(RedisKeys.audit(desk.dlq()),
                io.quarkus.redis.datasource.stream.StreamRange.of("-", "+")).stream().map(StreamMessage::payload).toList();
    }

    @Test
    void withoutASessionPagesRedirectToTheLoginAndTheApiStillChallengesBasic() {
        given().redirects().follow(false).get("/console").then().statusCode(302)
                .header("Location", containsString("/console/login"));
        given().redirects().follow(false).get(path() + "/causes").then().statusCode(302);
        given().redirects().follow(false).get("/console/live").then().statusCode(302);
        given().get("/console/login").then().statusCode(200).body(containsString("j_security_check"));
        given().get("/console/assets/console.css").then().statusCode(200).body(containsString("prefers-color-scheme"));
        given().get("/console/assets/console.js").then().statusCode(200);
        // The API: no redirect, no login page, a Basic challenge as before.
        given().redirects().follow(false).get("/dlq").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("Basic")).contentType(startsWith("application/problem+json"));
        given().redirects().follow(false).auth().preemptive().basic("viewer", "wrong").get("/dlq").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("Basic"));
        given().auth().preemptive().basic("viewer", "viewer-pw").get("/dlq").then().statusCode(200);
        // An HTML form's body posted to the API (as a page on another site could, with a browser's
        // saved Basic credentials) is no JSON, so it is refused (api/ApiWrites).
        String id = park("timeout", "1");
        given().auth().preemptive().basic("operator", "operator-pw").contentType("application/x-www-form-urlencoded")
                .formParam("note", "forged").post("/dlq/" + desk.dlq() + "/entries/" + id + "/replay").then().statusCode(415);
        assertTrue(desk.deadLetters().stream().anyMatch(m -> m.id().equals(id)), "still parked");
        // An unauthenticated POST to the console is sent to the login page and changes nothing.
        given().redirects().follow(false).contentType("application/x-www-form-urlencoded").formParam("reason", "x")
                .post(path() + "/entries/1-0/discard").then().statusCode(302);
    }

    @Test
    void loginSetsAnHttpOnlyStrictSessionCookieForTheConsoleOnly() {
        Response login = ConsoleClient.loginResponse("viewer", "viewer-pw");
        assertEquals(302, login.statusCode());
        assertTrue(login.header("Location").endsWith("/console"), login.header("Location"));
        String setCookie = login.headers().getValues("Set-Cookie").stream()
                .filter(c -> c.startsWith(ConsoleClient.SESSION + "=")).findFirst().orElseThrow();
        assertTrue(setCookie.toLowerCase(java.util.Locale.ROOT).contains("httponly"), setCookie);
        assertTrue(setCookie.contains("SameSite=Strict"), setCookie);
        assertTrue(setCookie.contains("Path=/console"), setCookie);
        Response wrong = ConsoleClient.loginResponse("viewer", "nope");
        assertTrue(wrong.statusCode() == 401 || wrong.statusCode() == 302, wrong.statusLine());
        assertEquals(null, wrong.cookie(ConsoleClient.SESSION), "no session for a wrong password");
        // The console's session is no key to the API.
        given().redirects().follow(false).cookie(ConsoleClient.SESSION, login.cookie(ConsoleClient.SESSION)).get("/dlq")
                .then().statusCode(401);
    }

    @Test
    void everyPageAnswersWithAStrictContentSecurityPolicyAndNoInlineScript() {
        String id = park("timeout", "900");
        ConsoleClient viewer = ConsoleClient.login("viewer");
        for (String page : List.of("/console", "/console/live", path() + "/causes", path() + "/entries", path() + "/entries/" + id)) {
            Response r = viewer.get(page);
            assertEquals(200, r.statusCode(), page);
            String csp = r.header("Content-Security-Policy");
            assertTrue(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && !csp.contains("unsafe"),
                    page + ": " + csp);
            String html = r.asString();
            assertFalse(html.contains("<script>") || html.contains(" style=") || html.contains("onclick"), page);
        }
    }

    @Test
    void theCausesPageGroupsByFingerprintWithOriginsJobsAndASample() {
        String first = park("declined", "11");
        String latest = park("declined", "12");
        ConsoleClient viewer = ConsoleClient.login("viewer");
        String html = viewer.get(path() + "/causes").then().statusCode(200).extract().asString();
        assertTrue(html.contains("payment provider declined card for order"), html);
        assertTrue(html.contains(latest) && !html.contains(first), "the sample is the latest of the cause");
        viewer.get(path() + "/causes?sort=recent").then().statusCode(200);
        viewer.get(path() + "/causes?sort=size").then().statusCode(400).contentType(startsWith("application/problem+json"));
        viewer.get(path() + "/causes?typo=1").then().statusCode(400);
        viewer.get("/console/dlq/nope/causes").then().statusCode(404);
    }

    @Test
    void entriesFilterByTextAndRefuseBadFilters() {
        String timeout = park("timeout", "31");
        String schema = park("schema", "32");
        ConsoleClient viewer = ConsoleClient.login("viewer");
        String html = viewer.request().queryParam("text", "TIMED OUT").get(path() + "/entries").then().statusCode(200).extract().asString();
        assertTrue(html.contains(timeout) && !html.contains(schema), "text search is case-insensitive and selects");
        // Blank fields of the search form mean any; malformed ones are refused as the API refuses them.
        assertTrue(viewer.get(path() + "/entries?origin=&text=&order=oldest").asString().contains(schema));
        viewer.get(path() + "/entries?fingerprint=zz").then().statusCode(400);
        viewer.get(path() + "/entries?deadFrom=yesterday").then().statusCode(400);
        viewer.get(path() + "/entries?colour=red").then().statusCode(400);
        // The API's listing takes the same text criterion.
        given().auth().preemptive().basic("viewer", "viewer-pw").queryParam("text", "timed out")
                .get("/dlq/" + desk.dlq() + "/entries").then().statusCode(200)
                .body("items.id", org.hamcrest.Matchers.hasItem(timeout))
                .body("items.id", not(org.hamcrest.Matchers.hasItem(schema)));
    }

    @Test
    void viewersSeeMaskedFieldsAndNoActionsAndTheServerRefusesTheirActions() {
        String id = park("declined", "41");
        ConsoleClient viewer = ConsoleClient.login("viewer");
        String html = viewer.get(path() + "/entries/" + id).then().statusCode(200).extract().asString();
        assertFalse(html.contains("4111-41"), "the card field is masked for a viewer");
        assertTrue(html.contains("data-masked=\"card\""), html);
        assertFalse(html.contains("/discard") || html.contains("/replay") || html.contains("/reveal"), "no action forms");
        for (String action : List.of("discard", "replay", "reveal")) {
            viewer.post(path() + "/entries/" + id + "/" + action, Map.of("reason", "mine")).then().statusCode(403)
                    .contentType(startsWith("application/problem+json"));
        }
        viewer.post(path() + "/redrives", Map.of("fingerprint", "aaaaaaaaaaaa", "dryRun", "true")).then().statusCode(403);
        assertTrue(desk.parked(desk.deadLetters().stream().filter(m -> m.id().equals(id)).findFirst().map(
                m -> new String(m.payload().get("origin-id"), StandardCharsets.UTF_8)).orElseThrow()).isPresent());
    }

    @Test
    void aStateChangeWithoutTheCsrfTokenIsRefusedAndChangesNothing() {
        String id = park("timeout", "51");
        ConsoleClient operator = ConsoleClient.login("operator");
        operator.postWithoutToken(path() + "/entries/" + id + "/discard", Map.of("reason", "forged")).then().statusCode(400);
        operator.request().contentType("application/x-www-form-urlencoded").formParam("reason", "forged")
                .formParam(ConsoleClient.CSRF_FIELD, "AAAAAAAAAAAAAAAAAAAAAA").post(path() + "/entries/" + id + "/discard")
                .then().statusCode(400);
        // A text/plain body, which a form on another site can send without a preflight, is not a form.
        operator.request().contentType("text/plain").body("reason=forged").post(path() + "/entries/" + id + "/discard")
                .then().statusCode(415);
        operator.postWithoutToken(path() + "/entries/" + id + "/reveal", Map.of()).then().statusCode(400);
        operator.postWithoutToken("/console/logout", Map.of()).then().statusCode(400);
        assertTrue(desk.deadLetters().stream().anyMatch(m -> m.id().equals(id)), "still parked");
        assertFalse(audit().stream().anyMatch(a -> id.equals(a.get("dlq-id"))), "nothing audited");
    }

    @Test
    void anOperatorDiscardsWithAReasonThroughTheAuditedDiscard() {
        String id = park("timeout", "61");
        ConsoleClient operator = ConsoleClient.login("operator");
        operator.post(path() + "/entries/" + id + "/discard", Map.of("reason", " ")).then().statusCode(400);
        operator.post(path() + "/entries/" + id + "/discard", Map.of("reason", "duplicate order"))
                .then().statusCode(303).header("Location", org.hamcrest.Matchers.endsWith(path() + "/entries/" + id));
        assertFalse(desk.deadLetters().stream().anyMatch(m -> m.id().equals(id)));
        Map<String, String> line = audit().stream().filter(a -> id.equals(a.get("dlq-id"))).findFirst().orElseThrow();
        assertEquals(Map.of("action", "discard", "actor", "operator", "note", "duplicate order"), Map.of("action",
                line.get("action"), "actor", line.get("actor"), "note", line.get("note")));
        String page = operator.get(path() + "/entries/" + id).then().statusCode(200).extract().asString();
        assertTrue(page.contains("no longer parked") && page.contains("discarded by operator: duplicate order"), page);
    }

    @Test
    void aPatchedReplayShowsItsDiffFirstAndSendsOnlyOnConfirm() {
        String id = park("schema", "71");
        ConsoleClient operator = ConsoleClient.login("operator");
        Map<String, String> edit = Map.of("name", "payload", "value", "{\"order\":71,\"items\":[1,2],\"sku\":\"A-1\"}",
                "note", "added the sku");
        String preview = operator.post(path() + "/entries/" + id + "/replay", edit).then().statusCode(200).extract().asString();
        assertTrue(preview.contains("class=\"added\">+ {&quot;order&quot;:71,&quot;items&quot;:[1,2],&quot;sku&quot;:&quot;A-1&quot;}"),
                preview);
        assertTrue(desk.deadLetters().stream().anyMatch(m -> m.id().equals(id)), "a preview replays nothing");
        // A masked field is not editable here.
        operator.post(path() + "/entries/" + id + "/replay", Map.of("name", "card", "value", "x")).then().statusCode(400);
        String key = preview.replaceAll("(?s).*name=\"key\" value=\"([^\"]+)\".*", "$1");
        Map<String, String> confirm = new java.util.HashMap<>(edit);
        confirm.put("confirm", "yes");
        confirm.put("key", key);
        operator.post(path() + "/entries/" + id + "/replay", confirm).then().statusCode(303);
        // A second click of the same confirm gets the first answer, not a second job.
        operator.post(path() + "/entries/" + id + "/replay", confirm).then().statusCode(303);
        Map<String, String> line = audit().stream().filter(a -> id.equals(a.get("dlq-id"))).findFirst().orElseThrow();
        assertEquals("replay", line.get("action"));
        assertEquals("operator", line.get("actor"));
        assertEquals("payload", line.get("patched"));
        List<StreamMessage<String, String, byte[]>> replayed = desk.entries().stream()
                .filter(m -> m.payload().containsKey("replay-of")
                        && new String(m.payload().get("replay-of"), StandardCharsets.UTF_8).equals(desk.dlq() + "/" + id))
                .toList();
        assertEquals(1, replayed.size());
        assertEquals("{\"order\":71,\"items\":[1,2],\"sku\":\"A-1\"}",
                new String(replayed.get(0).payload().get("payload"), StandardCharsets.UTF_8));
    }

    @Test
    void anOperatorRevealsMaskedFieldsOnlyByAnAuditedPost() {
        String id = park("declined", "81");
        ConsoleClient operator = ConsoleClient.login("operator");
        String page = operator.get(path() + "/entries/" + id).asString();
        assertFalse(page.contains("4111-81"), "masked for operators too until revealed");
        assertTrue(page.contains("id=\"reveal\""));
        String revealed = operator.post(path() + "/entries/" + id + "/reveal", Map.of()).then().statusCode(200).extract().asString();
        assertTrue(revealed.contains("4111-81"), revealed);
        Map<String, String> line = audit().stream().filter(a -> id.equals(a.get("dlq-id"))).findFirst().orElseThrow();
        assertEquals(Map.of("action", "reveal", "actor", "operator", "fields", "card"),
                line.entrySet().stream().filter(e -> List.of("action", "actor", "fields").contains(e.getKey()))
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        assertFalse(operator.get(path() + "/entries/" + id).asString().contains("4111-81"), "a GET never shows it");
    }

    @Test
    void aDryRunRedriveFromTheConsoleIsATaskLikeTheApisAndFiltersFailClosed() {
        park("timeout", "91");
        ConsoleClient operator = ConsoleClient.login("operator");
        operator.post(path() + "/redrives", Map.of("fingerprint", "", "dryRun", "true")).then().statusCode(400);
        operator.post(path() + "/redrives", Map.of("text", "timed out", "canary", "-1")).then().statusCode(400);
        operator.post(path() + "/redrives", Map.of("text", "timed out", "maxRefailRate", "2")).then().statusCode(400);
        String location = operator.post(path() + "/redrives", Map.of("text", "timed out", "dryRun", "true"))
                .then().statusCode(303).extract().header("Location");
        assertTrue(location.contains(path() + "/redrives/"), location);
        String task = location.substring(location.lastIndexOf('/') + 1);
        Await.until("dry run completed", () -> operator.get(location + "/live").asString().contains("completed"));
        given().auth().preemptive().basic("viewer", "viewer-pw").get("/dlq/" + desk.dlq() + "/redrives/" + task)
                .then().statusCode(200).body("dryRun", equalTo(true)).body("createdBy", equalTo("operator"))
                .body("state", equalTo("completed"));
        ConsoleClient.login("viewer").get(location).then().statusCode(200).body(not(containsString("id=\"cancel\"")));
    }
}
