package dev.redrive.api;

import java.util.List;
import java.util.Map;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.deadletter.Replays;

/**
 * The one owner of "a request says each thing once" for the API and the console: no query
 * parameter twice (JAX-RS would take the first, so {@code ?count=1&count=1000} or
 * {@code ?origin=a&origin=b} would quietly act on one of them), and an {@code Idempotency-Key}
 * header given once, that {@link Replays#idempotencyKey} takes (the replay's rule, which the
 * console's confirm key meets too; it is applied here as well because a resource is handed an empty
 * header as none, and the replay it was meant to guard would run twice). Each is a 400
 * {@code /problems/ambiguous-request} naming the parameter, before any resource reads the request.
 * No parameter of either takes a list: lists are comma-separated ({@code ids=a,b}).
 */
public class AmbiguousRequests {

    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

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
                Replays.idempotencyKey(keys.get(0));
            } catch (DeadLetterException e) {
                return problem(e.getMessage());
            }
        }
        return null;
    }

    private static Response problem(String detail) {
        return Problem.of(400, "ambiguous-request", "Ambiguous request", detail).response();
    }
}
