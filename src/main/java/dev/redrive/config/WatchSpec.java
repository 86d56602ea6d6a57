package dev.redrive.config;

import java.time.Duration;

/** A consumer group redrive polices but does not run, after validation. */
public record WatchSpec(String name, String stream, String group, int maxReceiveCount, String deadLetters,
        Duration interval) {
}
