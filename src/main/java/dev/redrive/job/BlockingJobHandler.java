package dev.redrive.job;

/**
 * A Java handler that may block; redrive runs it on a worker thread. Return to mark the job done,
 * throw {@link TerminalJobException} when retrying can't help, anything else when it might
 * ({@link JobFailedException} names the error type and the provider's least wait).
 */
public interface BlockingJobHandler {

    void handle(Job job) throws Exception;
}
