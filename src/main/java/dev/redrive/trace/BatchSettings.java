package dev.redrive.trace;

import java.time.Duration;

/**
 * The batch span processor's sizes, as Quarkus reads them ({@code quarkus.otel.bsp.*}; defaults in
 * application.properties, sized in RUNBOOK, "Spans dropped").
 */
record BatchSettings(int maxQueueSize, int maxExportBatchSize, Duration scheduleDelay, Duration exportTimeout) {
}
