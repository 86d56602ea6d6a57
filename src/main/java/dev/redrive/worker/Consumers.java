package dev.redrive.worker;

/** Consumer names redrive uses in every group. */
public final class Consumers {

    /**
     * Where failed entries wait for their next attempt, shared by all replicas. Entries here are
     * not in flight, so the retry scheduler may claim them; entries under a worker's own name are
     * never touched by the retry scheduler, however long their handler takes.
     */
    public static final String RETRY = "redrive-retry";

    private Consumers() {
    }

    /** The pod's hostname plus the process id: unique per process, readable in XINFO CONSUMERS. */
    public static String workerName() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                host = "redrive";
            }
        }
        return host + "-" + ProcessHandle.current().pid();
    }
}
