package dev.redrive.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A request to the operator API with an empty body has no content, whatever type it names: some
 * clients (RestAssured among them) label a bodiless POST or DELETE an HTML form. The console's CSRF
 * filter (quarkus-rest-csrf) demands its token of every form, so such a label would refuse a
 * replay or discard that carries nothing to forge; it is dropped here, before that filter runs.
 * An API request whose body really is a form still needs the token, so an HTML form on another
 * site can't post to the API with a browser's saved credentials.
 */
public class BodilessRequests {

    @ServerRequestFilter(preMatching = true)
    public void dropTheTypeOfNoBody(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if ((path.equals("/dlq") || path.startsWith("/dlq/")) && "0".equals(request.getHeaderString(HttpHeaders.CONTENT_LENGTH))
                && request.getHeaderString(HttpHeaders.CONTENT_TYPE) != null) {
            request.getHeaders().remove(HttpHeaders.CONTENT_TYPE);
        }
    }
}
