package dev.redrive.testing;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.redrive.job.Job;
import dev.redrive.job.JobHandler;
import dev.redrive.job.TerminalJobException;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;

/**
 * A handler with causes an operator can fix: a job names its {@code cause} ({@code declined},
 * {@code timeout}, {@code schema}); while that cause is broken the job fails terminally with a
 * message of its own kind (ids and numbers in it, which fingerprints normalise away), and once a
 * test {@link #fix}es it on a stream, jobs of that cause on that stream succeed (each test class
 * has its own stream, so one class's fix never changes another's jobs). A job with no cause
 * succeeds.
 */
@ApplicationScoped
@Identifier("fixable")
public class FixableHandler implements JobHandler {

    private final Set<String> fixed = ConcurrentHashMap.newKeySet();

    @Override
    public Uni<Void> handle(Job job) {
        String cause = job.text("cause").orElse("");
        String order = job.text("order").orElse("0");
        if (cause.isEmpty() || fixed.contains(job.stream() + " " + cause)) {
            return Uni.createFrom().voidItem();
        }
        String message = switch (cause) {
            case "declined" -> "payment provider declined card for order " + order;
            case "timeout" -> "ledger timed out after " + order + " ms";
            default -> "order " + order + " has no field 'sku'";
        };
        return Uni.createFrom().failure(new TerminalJobException(message));
    }

    /** Jobs of this cause on this stream succeed from now on. */
    public void fix(String stream, String cause) {
        fixed.add(stream + " " + cause);
    }
}
