package dev.redrive.job;

/**
 * The one way to say "retrying this job is useless": a corrupt input, a request the provider
 * always rejects. The job is parked at once, whatever budget it had left. Like
 * {@link JobFailedException} it carries no stack trace of its own (a cause keeps its own).
 */
public class TerminalJobException extends RuntimeException {

    private final String errorType;

    public TerminalJobException(String message) {
        this(null, message, null);
    }

    public TerminalJobException(String message, Throwable cause) {
        this(null, message, cause);
    }

    /**
     * @param errorType what the dead-letter record shows as {@code error-type} (e.g. {@code http-422});
     *        defaults to the cause's class, else this class
     */
    public TerminalJobException(String errorType, String message, Throwable cause) {
        super(message, cause, true, false);
        this.errorType = errorType;
    }

    public String errorType() {
        if (errorType != null) {
            return errorType;
        }
        return getCause() != null ? getCause().getClass().getName() : getClass().getName();
    }
}
