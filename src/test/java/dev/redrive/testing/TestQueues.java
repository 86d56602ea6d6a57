package dev.redrive.testing;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Inject;

import dev.redrive.config.QueueRegistry;
import dev.redrive.config.QueueSpec;
import dev.redrive.config.WatchSpec;
import io.quarkus.redis.datasource.RedisDataSource;

/**
 * Makes the {@link TestQueue} a test class asks for with {@link Own}: the stream, group and
 * dead-letter stream come from the boot's configuration (never spelled again in the test), and
 * the queue's group is awaited before the test runs, as redrive creates it asynchronously at start.
 * A receive-limit watch ({@code redrive.watch.<name>}) is found by its name too.
 */
@ApplicationScoped
public class TestQueues {

    @Inject
    QueueRegistry registry;

    @Inject
    RedisDataSource redis;

    @Produces
    @Dependent
    @Own("")
    TestQueue queue(InjectionPoint at) {
        String name = at.getQualifiers().stream().filter(Own.class::isInstance).map(Own.class::cast).findFirst()
                .orElseThrow().value();
        QueueSpec spec = registry.queues().get(name);
        if (spec != null) {
            TestQueue queue = new TestQueue(new Streams(redis), spec.stream(), spec.group(), spec.deadLetters());
            queue.awaitGroup();
            return queue;
        }
        // A watched group is created by its own consumers (the test, here), not by redrive.
        WatchSpec watch = registry.watches().get(name);
        if (watch != null) {
            return new TestQueue(new Streams(redis), watch.stream(), watch.group(), watch.deadLetters());
        }
        throw new IllegalStateException("no queue or watch " + name + " in this boot's profile; it has "
                + registry.queues().keySet() + " and " + registry.watches().keySet());
    }
}
