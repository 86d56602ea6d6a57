package dev.redrive.api;

import static io.restassured.RestAssured.given;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.JwtIssuer;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** Bearer JWT (the production option) beside Basic: roles from the groups claim, forged tokens refused. */
@QuarkusTest
@TestProfile(ApiProfile.class)
class JwtAuthTest {

    @Inject
    @Own("jwt")
    TestQueue jwt;

    @Test
    void aViewerTokenReadsButMayNotWrite() {
        String token = JwtIssuer.token("dashboard", "dlq-viewer");
        given().auth().oauth2(token).get("/dlq").then().statusCode(200);
        given().auth().oauth2(token).contentType("application/json").body("{\"dryRun\":true}")
                .urlEncodingEnabled(false).post(jwt.dlqPath() + "/redrives").then().statusCode(403)
                .contentType("application/problem+json");
    }

    @Test
    void anOperatorTokenMayStartARedrive() {
        given().auth().oauth2(JwtIssuer.token("oncall", "dlq-operator")).contentType("application/json")
                .body("{\"dryRun\":true}").urlEncodingEnabled(false).post(jwt.dlqPath() + "/redrives").then().statusCode(202);
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
