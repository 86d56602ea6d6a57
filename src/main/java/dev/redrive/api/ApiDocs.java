package dev.redrive.api;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;
import org.eclipse.microprofile.openapi.annotations.security.SecuritySchemes;

/** The OpenAPI document's header and the two ways to authenticate (served at /q/openapi). */
@OpenAPIDefinition(info = @Info(title = "redrive operator API", version = "1",
        description = "Inspect, replay, redrive and discard parked jobs. Every endpoint needs credentials with a "
                + "dlq-viewer, dlq-operator or dlq-automation role; errors are application/problem+json. Every "
                + "endpoint: a query parameter given twice, or an Idempotency-Key header that is empty, blank, longer "
                + "than 200 characters or given twice, is 400 /problems/ambiguous-request naming it; after "
                + "redrive.logins.free-failures wrong passwords of a user (or free-failures-per-address from one "
                + "address), Basic requests of that user or address are 429 /problems/too-many-failed-logins with "
                + "Retry-After until the wait ends, even with the right password."))
@SecuritySchemes({
        @SecurityScheme(securitySchemeName = "basic", type = SecuritySchemeType.HTTP, scheme = "basic"),
        @SecurityScheme(securitySchemeName = "jwt", type = SecuritySchemeType.HTTP, scheme = "bearer",
                bearerFormat = "JWT") })
public class ApiDocs extends Application {
}
