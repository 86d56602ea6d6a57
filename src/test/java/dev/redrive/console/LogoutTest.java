package dev.redrive.console;

import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * Logout ends the console session on the server (api/ConsoleSessions): a copy of its cookies
 * (leaked, or left on a shared machine) opens nothing afterwards, and the form cookie alone never
 * did; the user's other sessions go on.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class LogoutTest {

    @Inject
    RedisDataSource redis;

    @Test
    void aCopyOfTheCookiesOpensNothingAfterLogout() {
        ConsoleClient operator = ConsoleClient.login("operator");
        ConsoleClient elsewhere = ConsoleClient.login("operator");
        operator.get("/console").then().statusCode(200);

        Response out = operator.post("/console/logout", java.util.Map.of());
        out.then().statusCode(303).header("Location", containsString("/console/login"));
        assertTrue(out.headers().getValues("Set-Cookie").stream().anyMatch(c -> c.startsWith(ConsoleClient.SESSION_ID + "=;")),
                out.headers().toString());

        // the same cookies, as a copy kept from before the logout would send them
        for (String page : java.util.List.of("/console", "/console/live", "/console/dlq/" + "desk-dead" + "/causes")) {
            operator.get(page).then().statusCode(302).header("Location", containsString("/console/login"));
        }
        operator.post("/console/logout", java.util.Map.of()).then().statusCode(302);
        elsewhere.get("/console").then().statusCode(200);
    }

    /**
     * The form mechanism refreshes the form cookie of every request it authenticates, the refused
     * ones included, so the mark of an ended session is renewed whenever its cookies are presented:
     * it outlives every copy still in use, however long after the logout.
     */
    @Test
    void anEndedSessionStaysEndedWhileItsCookiesAreStillUsed() {
        ConsoleClient viewer = ConsoleClient.login("viewer");
        viewer.post("/console/logout", java.util.Map.of()).then().statusCode(303);
        String ended = RedisKeys.consoleSessionEnded(viewer.sessionId.substring(0, viewer.sessionId.indexOf('.')));
        redis.key().pexpire(ended, 1000); // as if its time were nearly up
        viewer.get("/console").then().statusCode(302);
        assertTrue(redis.key().pttl(ended) > 60_000, "the mark was renewed by the request that presented it");
    }

    @Test
    void theFormCookieAloneOpensNothing() {
        String setCookie = ConsoleClient.loginResponse("viewer", "viewer-pw").headers().getValues("Set-Cookie").stream()
                .filter(c -> c.startsWith(ConsoleClient.SESSION_ID + "=")).findFirst().orElseThrow();
        assertTrue(setCookie.toLowerCase(java.util.Locale.ROOT).contains("httponly") && setCookie.contains("SameSite=Strict")
                && setCookie.contains("Path=/console"), setCookie);
        ConsoleClient viewer = ConsoleClient.login("viewer");
        io.restassured.RestAssured.given().redirects().follow(false).cookie(ConsoleClient.SESSION, viewer.session).get("/console")
                .then().statusCode(302).header("Location", containsString("/console/login"));
        // nor with another user's session id
        ConsoleClient operator = ConsoleClient.login("operator");
        io.restassured.RestAssured.given().redirects().follow(false).cookie(ConsoleClient.SESSION, viewer.session)
                .cookie(ConsoleClient.SESSION_ID, operator.sessionId).get("/console")
                .then().statusCode(302).header("Location", containsString("/console/login"));
    }
}
