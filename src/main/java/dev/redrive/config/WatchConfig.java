package dev.redrive.config;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.WithDefault;

/** One watched group of {@code redrive.watch.<name>}: a consumer group redrive polices but does not run. */
public interface WatchConfig {
    /** The stream. Defaults to the watch's name. */
    Optional<String> stream();

    /** The consumer group to police (its consumers may be written in any language). Required. */
    Optional<String> group();

    /** Deliveries after which an unacked entry is parked. Defaults to {@code MAX_RECEIVE_COUNT}, else 5. */
    @WithDefault("${MAX_RECEIVE_COUNT:5}")
    int maxReceiveCount();

    /** The dead-letter stream. Defaults to {@code DLQ_NAME} when set, else {@code {<stream>}:dlq}. */
    @WithDefault("${DLQ_NAME:}")
    Optional<String> dlq();

    /** How often the group's pending entries are checked. Defaults to 1s. */
    @WithDefault("1s")
    Duration interval();
}
