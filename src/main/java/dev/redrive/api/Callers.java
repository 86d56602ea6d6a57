package dev.redrive.api;

import dev.redrive.config.RedriveConfig;
import io.quarkus.security.identity.SecurityIdentity;

/** Who is calling, as the audit trail names them, and what their roles allow beyond @RolesAllowed. */
public final class Callers {

    private Callers() {
    }

    public static String name(SecurityIdentity identity) {
        return identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName();
    }

    /** dlq-automation may replay only while it is switched on; an operator always may. */
    public static void requireMayReplay(SecurityIdentity identity, RedriveConfig config) {
        if (!identity.hasRole(Roles.OPERATOR) && !config.replay().automationEnabled()) {
            throw new ProblemException(403, "automation-disabled", "Automated replay is switched off",
                    "callers with only the dlq-automation role may replay when redrive.replay.automation-enabled "
                            + "(REPLAY_AUTOMATION_ENABLED) is true; it is false");
        }
    }
}
