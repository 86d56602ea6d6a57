package dev.redrive.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
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

    /**
     * redrive proposes under its own name after an outage: a token of that name, however spelt, is
     * refused before it could propose as redrive (api/ReservedNames), and a name that merely
     * starts so is anyone's.
     */
    @Test
    void aTokenNamedRedriveHoweverSpeltIsRefused() {
        for (String name : List.of("redrive", "Redrive", " REDRIVE ")) {
            String token = JwtIssuer.token(name, "dlq-operator");
            given().auth().oauth2(token).get("/dlq").then().statusCode(401);
            given().auth().oauth2(token).contentType("application/json").body("{\"filter\": {\"origin\": \"jwt\"}}")
                    .urlEncodingEnabled(false).post(jwt.dlqPath() + "/proposals").then().statusCode(401);
        }
        given().auth().oauth2(JwtIssuer.token("redriver", "dlq-viewer")).get("/dlq").then().statusCode(200);
        assertEquals(0, jwt.redis().sortedSet(String.class).zcard(RedisKeys.proposals(jwt.dlq())));
    }

    @Test
    void basicKeepsWorkingBesideJwt() {
        given().auth().preemptive().basic("viewer", ApiUsers.password("viewer")).get("/dlq").then().statusCode(200);
    }
}
