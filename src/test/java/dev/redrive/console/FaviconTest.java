package dev.redrive.console;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The icon every browser asks for: served to anyone (a tab shows it on the login page too) as a
 * real icon, not a 404 logged for every page, and named by the console's pages.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class FaviconTest {

    /** An ICO file's header: reserved 0, type 1 (icon). */
    static final byte[] ICO = { 0, 0, 1, 0 };

    @Test
    void theIconIsServedToAnyoneWithoutASession() {
        byte[] icon = given().redirects().follow(false).get("/favicon.ico").then().statusCode(200)
                .contentType(startsWith("image/")).extract().asByteArray();
        assertArrayEquals(ICO, Arrays.copyOf(icon, 4));
        assertTrue(icon.length < 4096, "a small file: " + icon.length + " bytes");
        given().get("/console/login").then().statusCode(200).body(containsString("<link rel=\"icon\" href=\"/favicon.ico\">"));
    }
}
