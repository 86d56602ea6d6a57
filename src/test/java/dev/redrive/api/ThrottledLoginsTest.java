package dev.redrive.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.SettableClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * Guessing a password: after redrive.logins.free-failures wrong ones, even the right password is
 * refused (429 and Retry-After for Basic, a failed login in the console) until the wait ends; the
 * clock is stepped past it instead of waited for.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ThrottledLoginsTest {

    @Inject
    ThrottledLogins logins;

    @Inject
    SettableClock clock;

    @Inject
    MeterRegistry meters;

    @AfterEach
    void forget() {
        clock.reset();
        logins.forget(); // the other classes of this boot log in as the same users from the same address
    }

    /** redrive_login_failures_total{via} as the registry scraped on /q/metrics holds it. */
    double failuresCounted(String via) {
        return meters.get("redrive.login.failures").tag("via", via).counter().count();
    }

    Response basic(String password) {
        return given().redirects().follow(false).auth().preemptive().basic("operator", password).get("/dlq");
    }

    @Test
    void afterFiveWrongPasswordsEvenTheRightOneWaitsUntilTheLockoutEnds() {
        double before = failuresCounted("basic");
        for (int i = 0; i < 5; i++) {
            assertEquals(401, basic("guess-" + i).statusCode());
        }
        Response refused = basic(ApiUsers.password("operator"));
        assertEquals(429, refused.statusCode(), refused.asString());
        assertEquals("30", refused.header("Retry-After")); // redrive.logins.lockout in ApiProfile
        assertTrue(refused.asString().contains("/problems/too-many-failed-logins"), refused.asString());
        assertEquals(before + 5, failuresCounted("basic"), "each wrong password counted once; the refused try is not checked");
        // The console's form login of the same user is refused too, though its password is right.
        String csrf = given().get("/console/login").cookie("redrive-csrf");
        Response form = given().redirects().follow(false).cookie("redrive-csrf", csrf).queryParam("csrf-token", csrf)
                .contentType("application/x-www-form-urlencoded").formParam("j_username", "operator")
                .formParam("j_password", ApiUsers.password("operator")).post("/console/j_security_check");
        assertNull(form.cookie("redrive-console"), "no session while operator waits: " + form.statusLine());
        // Bounded: once the wait is over the right password works, and resets the count.
        clock.advance(Duration.ofSeconds(30));
        assertEquals(200, basic(ApiUsers.password("operator")).statusCode());
        assertEquals(401, basic("guess-again").statusCode());
        assertEquals(200, basic(ApiUsers.password("operator")).statusCode(), "a success started the count again");
    }

    @Test
    void wrongConsoleLoginsAreCountedAsForm() {
        double before = failuresCounted("form");
        String csrf = given().get("/console/login").cookie("redrive-csrf");
        given().redirects().follow(false).cookie("redrive-csrf", csrf).queryParam("csrf-token", csrf)
                .contentType("application/x-www-form-urlencoded").formParam("j_username", "nobody")
                .formParam("j_password", "guess").post("/console/j_security_check");
        assertEquals(before + 1, failuresCounted("form"));
    }
}
