package dev.redrive.redrive;

/**
 * What tests outside this package may do to a {@link RedriveRunner}: what its shutdown and its
 * look for abandoned tasks do, and whether it still runs a task. The runner keeps these
 * package-private; production code reaches them only through Quarkus' lifecycle events.
 */
public final class RunnerLifecycle {

    private RunnerLifecycle() {
    }

    /**
     * What shutdown does to the runs: they stop and give up their leases; their tasks stay
     * unfinished. (The runner's periodic look for abandoned tasks, which a real shutdown also
     * cancels, goes on: the other tests of this boot share the runner.)
     */
    public static void shutDown(RedriveRunner runner) {
        runner.releaseAll();
    }

    /** What start-up does at once (and a live replica every lease period): take over abandoned tasks. */
    public static void takeOverAbandoned(RedriveRunner runner) {
        runner.resumeAbandoned();
    }

    public static boolean runsHere(RedriveRunner runner, String dlq, String id) {
        return runner.runsHere(dlq, id);
    }
}
