package dev.redrive.api;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;
import org.eclipse.microprofile.openapi.annotations.security.SecuritySchemes;

/**
 * The OpenAPI document's header, the two ways to authenticate, and the problem responses the
 * operator API shares, declared once here and applied to its operations by {@link ProblemResponses}
 * (served at /q/openapi).
 */
@OpenAPIDefinition(info = @Info(title = "redrive operator API", version = "1",
        description = "Inspect, replay, redrive and discard parked jobs. Every endpoint needs credentials with a "
                + "dlq-viewer, dlq-operator or dlq-automation role; errors are application/problem+json. Every "
                + "endpoint: a query parameter given twice, or an Idempotency-Key header that is empty, blank, longer "
                + "than 200 characters or given twice, is 400 /problems/ambiguous-request naming it; after "
                + "redrive.logins.free-failures wrong passwords of a user (or free-failures-per-address from one "
                + "address), Basic requests of that user or address are 429 /problems/too-many-failed-logins with "
                + "Retry-After until the wait ends, even with the right password."),
        components = @Components(responses = {
                @APIResponse(name = ProblemResponses.UNAUTHORIZED, description = "No or bad credentials",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = ProblemResponses.FORBIDDEN, description = "Your roles do not allow this; or "
                        + "(cross-site-request) a state change whose Sec-Fetch-Site or Origin names another origin than the "
                        + "service's own or one of redrive.allowed-origins",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = ProblemResponses.NOT_JSON, description = "Not Content-Type: application/json "
                        + "(not-json): every POST says it is JSON, with or without a body, so no other site's page can send it",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = ProblemResponses.UNAVAILABLE,
                        description = "Redis is down, full or slower than redrive.redis-timeout; see Retry-After",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = ProblemResponses.BUSY, description = ReadPermits.BUSY,
                        headers = @Header(name = "Retry-After", description = "Seconds to wait",
                                schema = @Schema(type = SchemaType.INTEGER)),
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))) }))
@SecuritySchemes({
        @SecurityScheme(securitySchemeName = "basic", type = SecuritySchemeType.HTTP, scheme = "basic"),
        @SecurityScheme(securitySchemeName = "jwt", type = SecuritySchemeType.HTTP, scheme = "bearer",
                bearerFormat = "JWT") })
public class ApiDocs extends Application {
}
