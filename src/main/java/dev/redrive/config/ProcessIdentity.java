package dev.redrive.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Who this process is to Redis: its consumer name in every group, and the name its redrive runner
 * holds task leases under. Decided once, from configuration, before anything reads or runs.
 */
@Singleton
public class ProcessIdentity {

    private final String consumer;
    private final String runner;

    @Inject
    public ProcessIdentity(RedriveConfig config) {
        this(config.consumerName().filter(s -> !s.isBlank()).orElseGet(ProcessIdentity::hostAndPid));
    }

    ProcessIdentity(String consumer) {
        this.consumer = consumer;
        // A suffix per start: a process restarted under the same name (same pod, often pid 1) must
        // not pass for the one whose lease it finds on a task.
        this.runner = consumer + "/" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** This process's consumer name in every group: {@code redrive.consumer-name}, else {@link #hostAndPid()}. */
    public String consumer() {
        return consumer;
    }

    /** The owner a redrive runner of this process writes into the task leases it holds. */
    public String runner() {
        return runner;
    }

    /** The pod's hostname plus the process id: unique per process, readable in XINFO CONSUMERS. */
    static String hostAndPid() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "redrive";
            }
        }
        return host + "-" + ProcessHandle.current().pid();
    }
}
