package dev.redrive.api;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.config.InvalidConfigException;
import dev.redrive.config.RedriveConfig;
import io.quarkus.runtime.Startup;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;

/**
 * Whether a request was sent by a page of another site: the one owner of that rule for the API,
 * {@code /mcp} (api/ApiWrites) and the console (console/ConsoleWrites). A browser adds its
 * {@code Sec-Fetch-Site} and {@code Origin} to what a page sends, and no page can remove them; a
 * client that is not a browser (curl, an SDK) sends neither or its own origin, so it is never refused
 * here. A page on another port of the same host is same-site (its requests carry SameSite=Strict
 * cookies and cached Basic credentials alike) but not the same origin, which is what is compared.
 * Origins in redrive.allowed-origins count as the service's own.
 */
@Singleton
@Startup // a bad allow-list stops start-up, naming the property
public class RequestOrigins {

    private final Set<String> allowed;
    private final ObjectMapper json;

    @Inject
    public RequestOrigins(RedriveConfig config, ObjectMapper json) {
        this.allowed = allowed(config.allowedOrigins().orElse(List.of()));
        this.json = json;
    }

    /** True when a browser says the request came from a page of another origin than the service's (or an allowed one). */
    public boolean foreign(HttpServerRequest request) {
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin != null && allowed.contains(origin.toLowerCase(Locale.ROOT))) {
            return false;
        }
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            // "none": the person typed or bookmarked it; "same-site" is another origin (port, subdomain).
            return !site.equals("same-origin") && !site.equals("none");
        }
        if (origin == null) {
            return false; // not a browser, or one too old to send either
        }
        int scheme = origin.indexOf("://");
        HostAndPort own = request.authority();
        return scheme < 0 || own == null || !origin.substring(scheme + 3).equalsIgnoreCase(
                own.port() < 0 ? own.host() : own.host() + ":" + own.port());
    }

    /** Whether a request of this method may change something (all but GET, HEAD and OPTIONS). */
    public static boolean changes(HttpMethod method) {
        return method != HttpMethod.GET && method != HttpMethod.HEAD && method != HttpMethod.OPTIONS;
    }

    /** Whether a Content-Type header names {@code type} (its parameters, such as charset, aside). */
    public static boolean is(String contentType, String type) {
        if (contentType == null) {
            return false;
        }
        int parameters = contentType.indexOf(';');
        return (parameters < 0 ? contentType : contentType.substring(0, parameters)).trim().toLowerCase(Locale.ROOT)
                .equals(type);
    }

    /** Ends the request with {@code problem}, before anything else reads it. */
    public void refuse(RoutingContext rc, Problem problem) {
        String body;
        try {
            body = json.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            body = "{\"status\":" + problem.status() + "}";
        }
        rc.response().setStatusCode(problem.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE).end(body);
    }

    public static Problem crossSite(String where) {
        return Problem.of(403, "cross-site-request", "Cross-site request", where + " takes state changes only from "
                + "its own origin or one in redrive.allowed-origins (Sec-Fetch-Site or Origin says this one came from "
                + "another)");
    }

    /** The allow-list as Origin headers spell it, lower-cased; a value that is not scheme://host[:port] stops start-up. */
    private static Set<String> allowed(List<String> configured) {
        Set<String> origins = new HashSet<>();
        for (String raw : configured) {
            String value = raw.strip();
            try {
                URI uri = new URI(value);
                boolean plain = ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                        && uri.getRawUserInfo() == null && uri.getRawQuery() == null && uri.getRawFragment() == null
                        && (uri.getRawPath() == null || uri.getRawPath().isEmpty());
                if (!plain) {
                    throw new URISyntaxException(value, "not an origin");
                }
            } catch (URISyntaxException e) {
                throw new InvalidConfigException("redrive.allowed-origins", "'" + value + "' is not an origin: give "
                        + "scheme://host[:port], e.g. https://redrive.example.com (no path, no wildcard)");
            }
            origins.add(value.toLowerCase(Locale.ROOT));
        }
        return Set.copyOf(origins);
    }
}
