package dev.redrive.api;

import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An RFC 9457 problem: what every 4xx and 5xx of the API carries, as application/problem+json.
 *
 * @param type a URI reference naming the kind of problem ({@code /problems/<slug>}; stable)
 */
@Schema(name = "Problem", description = "RFC 9457 problem details")
public record Problem(String type, String title, int status, String detail) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(int status, String slug, String title, String detail) {
        return new Problem("/problems/" + slug, title, status, detail);
    }

    public Response response() {
        return Response.status(status).type(MEDIA_TYPE).entity(this).build();
    }
}
