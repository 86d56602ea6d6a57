package dev.redrive.job;

import io.smallrye.mutiny.Uni;

/**
 * A Java handler, found by the {@code @Identifier} a queue's {@code handler} property names.
 * Complete the Uni to mark the job done; fail it with {@link TerminalJobException} when retrying
 * can't help, with anything else when it might ({@link JobFailedException} names the error type and
 * the provider's least wait). Don't retry inside: redrive owns the budget.
 * Runs on an event loop: don't block (implement {@link BlockingJobHandler} instead).
 */
public interface JobHandler {

    Uni<Void> handle(Job job);
}
