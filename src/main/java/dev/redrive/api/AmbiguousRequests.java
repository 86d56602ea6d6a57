package dev.redrive.api;

import java.util.List;
import java.util.Map;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The one owner of "a request says each thing once" for the API and the console: no query
 * parameter twice (JAX-RS would take the first, so {@code ?count=1&count=1000} or
 * {@code ?origin=a&origin=b} would quietly act on one of them), and an {@code Idempotency-Key}
 * header given once, with 1 to 200 characters (an empty one would count as none, and the replay it
 * was meant to guard would run twice). Each is a 400 {@code /problems/ambiguous-request} naming
 * the parameter, before any resource reads the request. No parameter of either takes a list:
 * lists are comma-separated ({@code ids=a,b}).
 */
public class AmbiguousRequests {

    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final int MAX_KEY = 200;

    @ServerRequestFilter
    public Response refuse(ContainerRequestContext request) {
        for (Map.Entry<String, List<String>> param : request.getUriInfo().getQueryParameters().entrySet()) {
            if (param.getValue().size() > 1) {
                return problem("query parameter '" + param.getKey() + "' is given " + param.getValue().size()
                        + " times; give it once");
            }
        }
        List<String> keys = request.getHeaders().get(IDEMPOTENCY_KEY);
        if (keys != null && keys.size() > 1) {
            return problem(IDEMPOTENCY_KEY + " is given " + keys.size() + " times; give it once");
        }
        if (keys != null) {
            try {
                idempotencyKey(IDEMPOTENCY_KEY, keys.get(0));
            } catch (ProblemException e) {
                return e.problem().response();
            }
        }
        return null;
    }

    /**
     * The rule for an idempotency key wherever it travels (the API's header, the console's confirm
     * form): 1 to 200 characters, not blank; null is refused too, since a caller who gives a key
     * relies on it.
     */
    public static String idempotencyKey(String name, String key) {
        if (key == null || key.isBlank() || key.length() > MAX_KEY) {
            throw new ProblemException(400, "ambiguous-request", "Ambiguous request", name + " must be 1 to " + MAX_KEY
                    + " characters, not blank (leave it out to send none)");
        }
        return key;
    }

    private static Response problem(String detail) {
        return Problem.of(400, "ambiguous-request", "Ambiguous request", detail).response();
    }
}
