package dev.redrive.console;

import dev.redrive.api.Callers;
import dev.redrive.api.Roles;

/**
 * Who is looking at a console page: the name the audit trail records, and whether the page shows
 * the operator's buttons (the actions check the role again on the server).
 */
public record Me(String user, boolean operator) {

    static Me of(Callers callers) {
        return new Me(callers.name(), callers.has(Roles.OPERATOR));
    }

    public String role() {
        return operator ? Roles.OPERATOR : Roles.VIEWER;
    }
}
