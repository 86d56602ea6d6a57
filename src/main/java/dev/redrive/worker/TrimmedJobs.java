package dev.redrive.worker;

import java.time.Instant;

import dev.redrive.job.Job;
import dev.redrive.retry.Failure;

/**
 * Where a job goes whose stream entry turned out to be trimmed when its outcome was written (a
 * hand-over, an immediate retry, a hand-back: transfer.lua claims only entries that still exist):
 * parked as missing with what is known of it, so it never vanishes from the PEL without a record.
 */
@FunctionalInterface
interface TrimmedJobs {

    /**
     * @param last        the failure of the attempt that just ended; null when the job was handed back unspent
     * @param attemptedAt when that attempt started; null when the job was handed back unspent
     */
    void park(Job job, Failure last, Instant attemptedAt);
}
