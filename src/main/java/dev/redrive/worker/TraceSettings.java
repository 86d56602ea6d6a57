package dev.redrive.worker;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.redrive.config.QueueRegistry;
import dev.redrive.config.RedriveConfig;
import dev.redrive.trace.DropWarnings;

/** redrive.tracing.* handed to trace/, which may not read redrive's configuration itself. */
@ApplicationScoped
public class TraceSettings {

    /** QueueRegistry is asked for so that its range check (ConfigRanges) has refused a bad value first. */
    @Produces
    @Singleton
    DropWarnings dropWarnings(RedriveConfig config, QueueRegistry checked) {
        return new DropWarnings(config.tracing().dropWarningInterval());
    }
}
