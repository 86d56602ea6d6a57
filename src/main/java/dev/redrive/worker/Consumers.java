package dev.redrive.worker;

/** Consumer names every replica shares (each process's own name comes from config/ProcessIdentity). */
public final class Consumers {

    /**
     * Where failed entries wait for their next attempt, shared by all replicas. Entries here are
     * not in flight, so the retry scheduler may claim them; entries under a worker's own name are
     * never touched by the retry scheduler, however long their handler takes.
     */
    public static final String RETRY = "redrive-retry";

    private Consumers() {
    }
}
