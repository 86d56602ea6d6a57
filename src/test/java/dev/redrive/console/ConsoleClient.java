package dev.redrive.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Map;

import dev.redrive.testing.ApiUsers;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * A console session over plain HTTP, as a browser holds one: the session cookie from the form
 * login and the CSRF cookie with the token its forms carry. Redirects are never followed, so tests
 * see them.
 */
final class ConsoleClient {

    static final String SESSION = "redrive-console";
    /** The session's id, which logout ends on the server (api/ConsoleSessions). */
    static final String SESSION_ID = dev.redrive.api.ConsoleSessions.COOKIE;
    static final String CSRF = "redrive-csrf";
    static final String CSRF_FIELD = "csrf-token";

    final String session;
    final String sessionId;
    final String csrf;

    private ConsoleClient(String session, String sessionId, String csrf) {
        this.session = session;
        this.sessionId = sessionId;
        this.csrf = csrf;
    }

    /** Logs {@code user} in with their password, then reads a page for the CSRF cookie. */
    static ConsoleClient login(String user) {
        Response login = loginResponse(user, ApiUsers.password(user));
        String session = login.cookie(SESSION);
        String sessionId = login.cookie(SESSION_ID);
        assertNotNull(session, "no session cookie after logging in as " + user + ": " + login.statusLine());
        assertNotNull(sessionId, "no session id cookie after logging in as " + user + ": " + login.statusLine());
        String csrf = given().redirects().follow(false).cookie(SESSION, session).cookie(SESSION_ID, sessionId).get("/console")
                .cookie(CSRF);
        assertNotNull(csrf, "no CSRF cookie on the overview");
        return new ConsoleClient(session, sessionId, csrf);
    }

    /** The login form as the login page sends it: with the CSRF token that page set, in the form's action. */
    static Response loginResponse(String user, String password) {
        String csrf = given().get("/console/login").cookie(CSRF);
        assertNotNull(csrf, "no CSRF cookie on the login page");
        return given().redirects().follow(false).cookie(CSRF, csrf).queryParam(CSRF_FIELD, csrf)
                .contentType("application/x-www-form-urlencoded").formParam("j_username", user)
                .formParam("j_password", password).post("/console/j_security_check");
    }

    /** A request with the session (and the CSRF cookie) but no form token. */
    RequestSpecification request() {
        return given().redirects().follow(false).cookie(SESSION, session).cookie(SESSION_ID, sessionId).cookie(CSRF, csrf);
    }

    /** A form post as the console's own forms send it: with the token. */
    Response post(String path, Map<String, ?> form) {
        return request().contentType("application/x-www-form-urlencoded").formParams(form).formParam(CSRF_FIELD, csrf)
                .post(path);
    }

    /** A form post without the token, as a page of another site could forge it. */
    Response postWithoutToken(String path, Map<String, ?> form) {
        RequestSpecification r = request().contentType("application/x-www-form-urlencoded");
        if (!form.isEmpty()) {
            r = r.formParams(form);
        }
        return r.post(path);
    }

    /** The session's and the CSRF cookie as one Cookie header, for a client other than RestAssured. */
    String cookieHeader() {
        return SESSION + "=" + session + "; " + SESSION_ID + "=" + sessionId + "; " + CSRF + "=" + csrf;
    }

    Response get(String path) {
        return request().get(path);
    }
}
