package dev.redrive.api;

import static io.restassured.RestAssured.given;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.JwtIssuer;
import dev.redrive.testing.RedisResource;
import dev.redrive.testing.TestConfig;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** Bearer JWT (the production option) beside Basic: roles from the groups claim, forged tokens refused. */
@QuarkusTest
@WithTestResource(RedisResource.class)
@WithTestResource(JwtIssuer.class)
@TestProfile(JwtAuthTest.Profile.class)
class JwtAuthTest {

    static final String DLQ = "%7Bjwt%7D%3Adlq";

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return TestConfig.withApiUsers().queue("jwt").handler("demo").and().build();
        }
    }

    @Test
    void aViewerTokenReadsButMayNotWrite() {
        String token = JwtIssuer.token("dashboard", "dlq-viewer");
        given().auth().oauth2(token).get("/dlq").then().statusCode(200);
        given().auth().oauth2(token).contentType("application/json").body("{\"dryRun\":true}")
                .urlEncodingEnabled(false).post("/dlq/" + DLQ + "/redrives").then().statusCode(403)
                .contentType("application/problem+json");
    }

    @Test
    void anOperatorTokenMayStartARedrive() {
        given().auth().oauth2(JwtIssuer.token("oncall", "dlq-operator")).contentType("application/json")
                .body("{\"dryRun\":true}").urlEncodingEnabled(false).post("/dlq/" + DLQ + "/redrives").then().statusCode(202);
    }

    @Test
    void forgedOrMissingTokensAreRefused() {
        given().auth().oauth2(JwtIssuer.forgedToken("mallory", "dlq-operator")).get("/dlq").then().statusCode(401);
        given().auth().oauth2("not-a-jwt").get("/dlq").then().statusCode(401);
        given().get("/dlq").then().statusCode(401);
    }

    @Test
    void basicKeepsWorkingBesideJwt() {
        given().auth().preemptive().basic("viewer", ApiUsers.password("viewer")).get("/dlq").then().statusCode(200);
    }
}
