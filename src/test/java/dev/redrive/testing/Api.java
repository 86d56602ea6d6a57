package dev.redrive.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import dev.redrive.api.Problem;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

/**
 * The operator API as the tests call it: a request as one of {@link ApiUsers}, path segments
 * encoded once (a dead-letter stream's braces would read as a template), and the shape every
 * problem answer has.
 */
public final class Api {

    private Api() {
    }

    /**
     * A request with {@code user}'s Basic credentials, its path taken as written (segments encoded
     * with {@link #enc}), saying it is JSON as every API request that changes something must
     * (api/ApiWrites), with or without a body; a test of another Content-Type sets its own.
     */
    public static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, ApiUsers.password(user)).urlEncodingEnabled(false)
                .contentType("application/json");
    }

    /** One path segment, encoded. */
    public static String enc(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The path of a dead-letter stream: {@code /dlq/<encoded name>}. */
    public static String dlq(String dlq) {
        return "/dlq/" + enc(dlq);
    }

    /** The answer is a problem of {@code status}, with its type, title and detail. */
    public static void problem(ValidatableResponse r, int status) {
        r.statusCode(status).contentType(Problem.MEDIA_TYPE)
                .body("status", equalTo(status)).body("type", notNullValue()).body("title", notNullValue())
                .body("detail", notNullValue());
    }
}
