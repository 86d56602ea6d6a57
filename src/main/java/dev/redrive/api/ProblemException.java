package dev.redrive.api;

/** A request the API refuses, with the problem it answers; nothing has been changed. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(int status, String slug, String title, String detail) {
        super(detail);
        this.problem = Problem.of(status, slug, title, detail);
    }

    public static ProblemException badRequest(String detail) {
        return new ProblemException(400, "bad-request", "Bad request", detail);
    }

    public Problem problem() {
        return problem;
    }
}
