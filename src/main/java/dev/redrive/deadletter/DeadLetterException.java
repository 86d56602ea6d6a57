package dev.redrive.deadletter;

/**
 * Why a dead-letter operation was refused. The reasons are the scripts' return codes and the
 * checks made before them, named once; the API turns each into one HTTP answer.
 */
public class DeadLetterException extends RuntimeException {

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
        /** A key the step would write holds another type of value; nothing was written. */
        WRONG_TYPE,
        /** No such redrive task. */
        NO_TASK,
        /** The redrive task is already finished. */
        TASK_FINISHED,
        /** Another redrive of the same dead-letter stream is unfinished. */
        REDRIVE_RUNNING,
        /** No such redrive proposal (never made, or forgotten after its expiry). */
        NO_PROPOSAL,
        /** The proposal was approved or rejected before, or expired: it is decided once. */
        PROPOSAL_DECIDED,
        /** The caller proposed it: someone else must approve or reject it. */
        OWN_PROPOSAL
    }

    private final Reason reason;

    public DeadLetterException(Reason reason, String detail) {
        super(detail);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
