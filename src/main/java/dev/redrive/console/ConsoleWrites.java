package dev.redrive.console;

import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.api.Problem;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
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
 * SameSite=Strict cookies; the browser's {@code Sec-Fetch-Site} (or, from a browser too old to
 * send it, the {@code Origin} compared with the request's own host) tells it apart.
 */
@ApplicationScoped
public class ConsoleWrites {

    static final String FORM = "application/x-www-form-urlencoded";
    static final String LOGIN = ConsoleUrls.ROOT + "/j_security_check";

    @Inject
    ObjectMapper json;

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
        if (safe(request.method()) || !(path.equals(ConsoleUrls.ROOT) || path.startsWith(ConsoleUrls.ROOT + "/"))) {
            rc.next();
        } else if (crossSite(request)) {
            refuse(rc, Problem.of(403, "cross-site-request", "Cross-site request",
                    "the console takes state changes only from its own pages (Sec-Fetch-Site or Origin says this one "
                            + "came from another)"));
        } else if (!isForm(request.getHeader(HttpHeaders.CONTENT_TYPE))) {
            refuse(rc, Problem.of(415, "not-a-form", "Not a form",
                    "a console action is a form post (" + FORM + ") carrying its form's CSRF token"));
        } else if (path.equals(LOGIN) && !loginTokenMatches(rc)) {
            refuse(rc, Problem.of(403, "csrf-token-invalid", "Missing or wrong CSRF token",
                    "log in from the console's login page (" + ConsoleUrls.ROOT + "/login)"));
        } else {
            rc.next();
        }
    }

    private static boolean safe(HttpMethod method) {
        return method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS;
    }

    static boolean crossSite(HttpServerRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            // "none": the person typed or bookmarked it; "same-site" is another origin (port, subdomain).
            return !site.equals("same-origin") && !site.equals("none");
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin == null) {
            return false; // not a browser, or one that sends neither: the form token still decides
        }
        int scheme = origin.indexOf("://");
        HostAndPort own = request.authority();
        return scheme < 0 || own == null || !origin.substring(scheme + 3).equalsIgnoreCase(
                own.port() < 0 ? own.host() : own.host() + ":" + own.port());
    }

    static boolean isForm(String contentType) {
        if (contentType == null) {
            return false;
        }
        int parameters = contentType.indexOf(';');
        String type = (parameters < 0 ? contentType : contentType.substring(0, parameters)).trim();
        return type.toLowerCase(Locale.ROOT).equals(FORM);
    }

    private boolean loginTokenMatches(RoutingContext rc) {
        Cookie cookie = rc.request().getCookie(csrfCookie);
        String token = rc.request().getParam(csrfField);
        return cookie != null && token != null && !token.isEmpty()
                && java.security.MessageDigest.isEqual(token.getBytes(), cookie.getValue().getBytes());
    }

    private void refuse(RoutingContext rc, Problem problem) {
        String body;
        try {
            body = json.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            body = "{\"status\":" + problem.status() + "}";
        }
        rc.response().setStatusCode(problem.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE).end(body);
    }
}
