package dev.redrive.deadletter;

import dev.redrive.redis.Replication;

/**
 * Why a dead-letter operation was refused. The reasons are the scripts' return codes and the
 * checks made before them, named once; the API turns each into one HTTP answer.
 */
public class DeadLetterException extends RuntimeException {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(DeadLetterException.class);

    public enum Reason {
        /** No such dead-letter stream is known to redrive. */
        UNKNOWN_STREAM,
        /** No such entry: never parked, or already replayed or discarded. */
        GONE,
        /** The record's origin is not a stream redrive may write to. */
        ORIGIN_NOT_ALLOWED,
        /** The origin and the dead-letter stream are in different hash slots: no single atomic step. */
        CROSS_SLOT,
        /** The job was trimmed before it was parked; nothing to send back. */
        NO_SNAPSHOT,
        /** The Idempotency-Key already answered a request about another entry. */
        KEY_REUSED,
        /** An Idempotency-Key that is empty, blank or too long ({@link Replays#idempotencyKey}). */
        BAD_KEY,
        /** A discard without a reason, or with one too long ({@link Replays#reason}); a decision's note too long. */
        BAD_REASON,
        /** A key the step would write holds another type of value; nothing was written. */
        WRONG_TYPE,
        /** No such redrive task. */
        NO_TASK,
        /** A redrive was to be started from a task that is not a dry run (the console's confirm). */
        NOT_A_DRY_RUN,
        /** The redrive task is already finished. */
        TASK_FINISHED,
        /** Another redrive of the same dead-letter stream is unfinished. */
        REDRIVE_RUNNING,
        /** The write happened on the primary, but fewer replicas than redrive.redis.wait-replicas confirmed it in time. */
        NOT_REPLICATED,
        /** No such redrive proposal (never made, or forgotten after its expiry). */
        NO_PROPOSAL,
        /** The proposal was approved or rejected before, or expired: it is decided once. */
        PROPOSAL_DECIDED,
        /** The caller proposed it: someone else must approve or reject it. */
        OWN_PROPOSAL,
        /** With redrive.redrives.require-approval, a redrive that moves entries must be proposed, not started. */
        APPROVAL_REQUIRED
    }

    private final Reason reason;

    public DeadLetterException(Reason reason, String detail) {
        super(detail);
        this.reason = reason;
    }

    /**
     * {@code done} (what happened, in the past tense) is on the primary, but fewer replicas than
     * asked confirmed it within the wait: a failover now could lose it. Not repeated blindly.
     */
    public static DeadLetterException notReplicated(String done, Replication.Written written) {
        LOG.warnf("%s, but %d of %d replicas confirmed it within %s (redrive.redis.wait-replicas): a failover now "
                + "could lose it", done, written.replicas(), written.wanted(), written.waited());
        return new DeadLetterException(Reason.NOT_REPLICATED, done + " on the primary, but only " + written.replicas()
                + " of " + written.wanted() + " replicas (redrive.redis.wait-replicas) confirmed it within "
                + written.waited() + ": the write happened and stays; a failover before a replica gets it could lose "
                + "it. Check the entry or the audit trail later instead of repeating it (a replay with the same "
                + "Idempotency-Key answers from the first one)");
    }

    public Reason reason() {
        return reason;
    }
}
