package dev.redrive.demo;


import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.redrive.job.Job;
import dev.redrive.job.JobHandler;
import dev.redrive.job.LogText;
import dev.redrive.job.TerminalJobException;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;

/**
 * The handler the README's demo queue uses. Its {@code kind} field picks the behaviour:
 * {@code ok} succeeds, {@code flaky} fails its first two attempts, {@code poison} always fails
 * transiently (parked as exhausted), {@code corrupt} fails terminally (parked at once).
 */
@ApplicationScoped
@Identifier("demo")
public class DemoJobHandler implements JobHandler {

    private static final Logger LOG = Logger.getLogger(DemoJobHandler.class);

    @Override
    public Uni<Void> handle(Job job) {
        String kind = job.text("kind").orElse("ok");
        return switch (kind) {
            case "flaky" -> job.attempt() < 3
                    ? Uni.createFrom().failure(new IllegalStateException("provider busy (attempt " + job.attempt() + ")"))
                    : done(job);
            case "poison" -> Uni.createFrom().failure(new IllegalStateException("model provider answered 503"));
            case "corrupt" -> Uni.createFrom().failure(new TerminalJobException("upload is not a valid PDF"));
            default -> done(job);
        };
    }

    private static Uni<Void> done(Job job) {
        LOG.infof("demo: done %s (%s) on attempt %d of %d", job.jobId(), LogText.of(job.text("kind").orElse("ok")),
                job.attempt(), job.maxAttempts());
        return Uni.createFrom().voidItem();
    }
}
