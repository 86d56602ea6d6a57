package dev.redrive.trace;

import java.time.Duration;

/**
 * How often at most {@link SpanLedger} writes its WARN line of dropped spans
 * ({@code redrive.tracing.drop-warning-interval}). trace/ reads none of redrive's configuration, so
 * the wiring produces this from it (worker/TraceSettings), checked with the rest at start-up.
 */
public record DropWarnings(Duration interval) {
}
