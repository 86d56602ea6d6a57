package dev.redrive.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.RedriveConfig;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Who is calling, as the audit trail names them, and what their roles allow beyond @RolesAllowed:
 * the one place the API, the console and the MCP tools read the request's identity.
 */
@ApplicationScoped
public class Callers {

    @Inject
    SecurityIdentity identity;

    @Inject
    RedriveConfig config;

    /** The caller's name in the audit trail; "anonymous" without credentials. */
    public String name() {
        return identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName();
    }

    public boolean has(String role) {
        return identity.hasRole(role);
    }

    /** dlq-automation may replay only while it is switched on; an operator always may. */
    public void requireMayReplay() {
        if (!identity.hasRole(Roles.OPERATOR) && !config.replay().automationEnabled()) {
            throw new ProblemException(403, "automation-disabled", "Automated replay is switched off",
                    "callers with only the dlq-automation role may replay when redrive.replay.automation-enabled "
                            + "(REPLAY_AUTOMATION_ENABLED) is true; it is false");
        }
    }
}
