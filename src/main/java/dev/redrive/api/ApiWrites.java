package dev.redrive.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * What a request to the operator API or to {@code /mcp} must be before anything reads it, so that
 * a page of another site can't act with an operator's browser (cached Basic credentials travel
 * with a {@code fetch(..., {mode: 'no-cors', credentials: 'include'})}): a state change (any
 * method but GET, HEAD and OPTIONS), a reveal of masked fields ({@code ?reveal=...}, audited in
 * the caller's name) and every {@code /mcp} request come from the service's own origin or a client
 * that is no browser ({@link RequestOrigins}), else 403; and a state change
 * that carries a body (POST, PUT, PATCH) says it is JSON, else 415. A browser sends a cross-site
 * request without a CORS preflight only as text/plain, a form or multipart, and redrive grants no
 * preflight, so JSON is the proof it came from a real client. A DELETE never carries a body and
 * always needs a preflight from another origin; it is held to the origin check alone.
 */
@ApplicationScoped
public class ApiWrites {

    static final String JSON = "application/json";

    @Inject
    RequestOrigins origins;

    void register(@Observes Filters filters) {
        // Above CORS (300) and authentication (200): a refused request never reaches a login or a resource.
        filters.register(this::check, 400);
    }

    void check(RoutingContext rc) {
        String path = rc.normalizedPath();
        boolean mcp = under(path, "/mcp");
        HttpServerRequest request = rc.request();
        boolean changes = RequestOrigins.changes(request.method());
        // A reveal is a GET that writes an audit record in the caller's name: held to the origin rule too.
        boolean reveals = request.params().contains("reveal");
        if (!(mcp || under(path, "/dlq")) || !(changes || mcp || reveals)) {
            rc.next();
        } else if (origins.foreign(request)) {
            origins.refuse(rc, RequestOrigins.crossSite(mcp ? "/mcp" : "the API"));
        } else if (changes && request.method() != HttpMethod.DELETE
                && !RequestOrigins.is(request.getHeader(HttpHeaders.CONTENT_TYPE), JSON)) {
            origins.refuse(rc, Problem.of(415, "not-json", "Not JSON", request.method() + " " + (mcp ? "/mcp" : "on the API")
                    + " takes Content-Type: " + JSON + ", with or without a body (a request without it could have been "
                    + "sent by another site's page)"));
        } else {
            rc.next();
        }
    }

    private static boolean under(String path, String root) {
        return path.equals(root) || path.startsWith(root + "/");
    }
}
