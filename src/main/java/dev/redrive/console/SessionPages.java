package dev.redrive.console;

import java.net.URI;
import java.util.Set;

import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;


import dev.redrive.api.ConsoleSessions;
import dev.redrive.api.Requests;
import dev.redrive.api.Roles;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.FormAuthenticationMechanism;

/**
 * Logging in and out of the console. Quarkus' form authentication checks the user and password
 * (POST /console/j_security_check, the same embedded users as the API) and keeps the session in
 * an encrypted HttpOnly, SameSite=Strict cookie scoped to /console; these pages are its form and
 * the way out, which ends the session on the server too ({@link ConsoleSessions}).
 */
@Path(ConsoleUrls.ROOT)
@Produces(MediaType.TEXT_HTML)
public class SessionPages {

    @Inject
    SecurityIdentity identity;

    @Inject
    ConsoleSessions sessions;

    @Context
    UriInfo uri;

    @GET
    @Path("login")
    @PermitAll
    public TemplateInstance login() {
        Requests.onlyParams(uri, Set.of());
        return ConsoleTemplates.login(false);
    }

    /** Where a failed login lands (quarkus.http.auth.form.error-page). */
    @GET
    @Path("login/failed")
    @PermitAll
    public TemplateInstance failed() {
        Requests.onlyParams(uri, Set.of());
        return ConsoleTemplates.login(true);
    }

    @POST
    @Path("logout")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR })
    public Response logout(@CookieParam(ConsoleSessions.COOKIE) String session) {
        // Ended on the server first: should the answer never reach the browser, no copy of its cookies works.
        sessions.end(session).await().indefinitely();
        FormAuthenticationMechanism.logout(identity);
        return Response.seeOther(URI.create(ConsoleUrls.ROOT + "/login"))
                .cookie(new NewCookie.Builder(ConsoleSessions.COOKIE).path(ConsoleUrls.ROOT).value("").maxAge(0)
                        .httpOnly(true).build())
                .build();
    }
}
