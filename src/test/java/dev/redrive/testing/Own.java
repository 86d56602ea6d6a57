package dev.redrive.testing;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.inject.Qualifier;

/**
 * Which queue of the boot a test class owns: {@code @Inject @Own("jobs") TestQueue jobs;} gives the
 * queue's streams as configured, its group already in place (see {@link TestQueues}).
 */
@Qualifier
@Retention(RUNTIME)
@Target({ FIELD, METHOD, PARAMETER })
public @interface Own {

    /** The queue's name, {@code redrive.queues.<name>}. */
    @Nonbinding
    String value();
}
