package dev.redrive.redrive;

import java.util.Locale;

/**
 * Where a proposed redrive stands. A proposal is made {@link #PROPOSED} and decided once: another
 * operator approves it (proposal-approve.lua, which starts its task in the same step) or rejects
 * it (proposal-reject.lua); undecided past its expiry it is {@link #EXPIRED}, which no script
 * writes: the clock decides it, and both scripts refuse it.
 */
public enum ProposalState {
    PROPOSED, APPROVED, REJECTED, EXPIRED;

    /** The state as the hash and the API spell it. */
    public final String wire = name().toLowerCase(Locale.ROOT);

    static ProposalState of(String wire) {
        for (ProposalState s : values()) {
            if (s.wire.equals(wire)) {
                return s;
            }
        }
        throw new IllegalStateException("no proposal state '" + wire + "'");
    }
}
