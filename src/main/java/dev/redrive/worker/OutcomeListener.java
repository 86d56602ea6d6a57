package dev.redrive.worker;

import java.time.Instant;
import java.util.List;

import dev.redrive.job.Job;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Failure;

/**
 * The seam between {@link QueueWorker} and the classes that write its jobs' outcomes
 * ({@link Outcomes}, {@link ImmediateRetries}, {@link Parking}): what they tell the worker once a
 * write is answered. The worker is the one implementation; its slots, its runs and its retry
 * scheduler stay its own.
 */
interface OutcomeListener {

    /** Runs a task after the current event-loop turn, so the writes of one turn go out together ({@link Batcher}). */
    void later(Runnable task);

    /** One job's outcome is written, or failed to be: its slot is free. */
    void slotFreed();

    /** Jobs the retry consumer holds now, once Redis confirmed it, each with its due time. */
    void handedOver(List<DueRetries.Waiting> waiting);

    /** Jobs due again at once ({@link ImmediateRetries}), as entries with their new delivery count. */
    void runAgain(List<StreamAccess.Entry> entries);

    /**
     * A job whose stream entry turned out trimmed when its outcome was written (a hand-over, an
     * immediate retry, a hand-back: transfer.lua claims only entries that still exist): it is
     * parked as missing with what is known of it, so it never vanishes from the PEL without a record.
     *
     * @param last        the failure of the attempt that just ended; null when the job was handed back unspent
     * @param attemptedAt when that attempt started; null when the job was handed back unspent
     */
    void trimmed(Job job, Failure last, Instant attemptedAt);
}
