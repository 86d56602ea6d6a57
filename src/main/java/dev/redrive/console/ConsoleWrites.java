package dev.redrive.console;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.redrive.api.Problem;
import dev.redrive.api.RequestOrigins;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * What every state-changing console request must be before anything reads it (the login
 * included, which Quarkus' form mechanism handles before any resource): sent by the console's own
 * origin, and an HTML form. quarkus-rest-csrf then demands the form's token of every form post;
 * it lets through whatever is not a form, which is why anything else is refused here (a POST
 * without a Content-Type would otherwise reach the resource unchecked, its missing fields read
 * as empty). The login post, which never reaches rest-csrf, carries its token in the query: the
 * form mechanism reads the body itself, so no filter may read it first.
 *
 * <p>A page on another port of the same host is same-site, so its requests carry the
 * SameSite=Strict cookies; {@link RequestOrigins}, the rule the API and /mcp follow too, tells it apart.
 */
@ApplicationScoped
public class ConsoleWrites {

    static final String FORM = "application/x-www-form-urlencoded";
    static final String LOGIN = ConsoleUrls.ROOT + "/j_security_check";

    @Inject
    RequestOrigins origins;

    @ConfigProperty(name = "quarkus.rest-csrf.cookie-name")
    String csrfCookie;

    @ConfigProperty(name = "quarkus.rest-csrf.form-field-name", defaultValue = "csrf-token")
    String csrfField;

    void register(@Observes Filters filters) {
        // Above CORS (300) and authentication (200): a refused request never reaches a login or a session.
        filters.register(this::check, 400);
    }

    void check(RoutingContext rc) {
        HttpServerRequest request = rc.request();
        String path = rc.normalizedPath();
        if (!RequestOrigins.changes(request.method()) || !ConsoleUrls.under(path)) {
            rc.next();
        } else if (origins.foreign(request)) {
            origins.refuse(rc, RequestOrigins.crossSite("the console"));
        } else if (!isForm(request.getHeader(HttpHeaders.CONTENT_TYPE))) {
            origins.refuse(rc, Problem.of(415, "not-a-form", "Not a form",
                    "a console action is a form post (" + FORM + ") carrying its form's CSRF token"));
        } else if (path.equals(LOGIN) && !loginTokenMatches(rc)) {
            origins.refuse(rc, Problem.of(403, "csrf-token-invalid", "Missing or wrong CSRF token",
                    "log in from the console's login page (" + ConsoleUrls.ROOT + "/login)"));
        } else {
            rc.next();
        }
    }

    static boolean isForm(String contentType) {
        return RequestOrigins.is(contentType, FORM);
    }

    private boolean loginTokenMatches(RoutingContext rc) {
        Cookie cookie = rc.request().getCookie(csrfCookie);
        String token = rc.request().getParam(csrfField);
        return cookie != null && token != null && !token.isEmpty()
                && java.security.MessageDigest.isEqual(token.getBytes(), cookie.getValue().getBytes());
    }

}
