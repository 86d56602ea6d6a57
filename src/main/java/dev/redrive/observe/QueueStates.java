package dev.redrive.observe;

import java.util.Map;

/**
 * What readiness needs to know of the queues this process works, told by whoever runs them: the
 * health check depends on this, not on the workers.
 */
public interface QueueStates {

    /** Each queue whose worker has started, by name: whether it is paused (its circuit is open). */
    Map<String, Boolean> pausedByQueue();

    /** Whether the warm-up runs (the queues start when it ends). */
    default boolean warmingUp() {
        return false;
    }
}
