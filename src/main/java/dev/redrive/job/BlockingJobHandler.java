package dev.redrive.job;

/**
 * A Java handler that may block; redrive runs it on a worker thread. Return to mark the job done,
 * throw {@link TerminalJobException} when retrying can't help, anything else when it might.
 */
public interface BlockingJobHandler {

    void handle(Job job) throws Exception;
}
