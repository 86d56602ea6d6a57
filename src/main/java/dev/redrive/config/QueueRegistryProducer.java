package dev.redrive.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.redrive.job.BlockingJobHandler;
import dev.redrive.job.JobHandler;
import dev.redrive.redis.RedisTopology;
import dev.redrive.redis.Replication;
import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Identifier;

/**
 * The one {@link QueueRegistry} of the process, built and validated first thing at start-up
 * (before any worker, watch or runner starts), so every bean that needs a stream name asks
 * configuration, not the workers.
 */
@ApplicationScoped
public class QueueRegistryProducer {

    private static final Logger LOG = Logger.getLogger(QueueRegistryProducer.class);

    /** Ahead of every other start-up observer: a bad value stops the process before it touches Redis. */
    static final int FIRST = 1;

    /** redrive.redis.wait-*, checked with the rest of the configuration by {@link QueueRegistry}. */
    @Produces
    @Singleton
    Replication.Wait replicaWait(RedriveConfig config, QueueRegistry checked) {
        return new Replication.Wait(config.redis().waitReplicas(), config.redis().waitTimeout());
    }

    @Produces
    @Singleton
    @Startup(FIRST)
    QueueRegistry registry(RedriveConfig config, RedisTopology topology, @Any Instance<JobHandler> reactive,
            @Any Instance<BlockingJobHandler> blocking) {
        try {
            return new QueueRegistry(config, name -> reactive.select(Identifier.Literal.of(name)).isResolvable()
                    || blocking.select(Identifier.Literal.of(name)).isResolvable(), topology.cluster());
        } catch (RuntimeException e) {
            // One line an operator can act on, above the start-up failure's stack trace.
            LOG.error(e.getMessage());
            throw e;
        }
    }
}
