package dev.redrive.api;

/** The roles of the operator API (docs/API.md, "Roles"). */
public final class Roles {

    /** Reads dead letters, their audit trail and redrives. */
    public static final String VIEWER = "dlq-viewer";
    /** Replays, redrives and discards; reads too. */
    public static final String OPERATOR = "dlq-operator";
    /** A machine caller: reads, and replays single entries only when redrive.replay.automation-enabled is true. */
    public static final String AUTOMATION = "dlq-automation";

    private Roles() {
    }
}
