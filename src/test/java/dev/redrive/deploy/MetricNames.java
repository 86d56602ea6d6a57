package dev.redrive.deploy;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** redrive's Prometheus metric names (observe/QueueMetrics, the dead-letter API, redrive/WaitingProposalsGauge), as scraped. */
final class MetricNames {

    static final Set<String> ALL = Set.of(
            "redrive_jobs_completed_total",
            "redrive_attempts_failed_total",
            "redrive_jobs_dead_lettered_total",
            "redrive_jobs_released_total",
            "redrive_jobs_unparked_total",
            "redrive_dlq_depth",
            "redrive_pending",
            "redrive_lag",
            "redrive_oldest_pending_age_seconds",
            "redrive_group_consumers",
            "redrive_queue_paused",
            "redrive_handler_duration_seconds",
            "redrive_dlq_replayed_total",
            "redrive_dlq_discarded_total",
            "redrive_proposals_waiting",
            "redrive_readers_failing",
            "redrive_trace_spans_ended_total",
            "redrive_trace_spans_exported_total",
            "redrive_trace_spans_dropped_total",
            "redrive_login_failures_total");

    private static final Pattern NAME = Pattern.compile("\\bredrive_[a-z0-9_]+");
    private static final Pattern HISTOGRAM_SERIES = Pattern.compile("_(bucket|count|sum|max)$");

    private MetricNames() {
    }

    /** The redrive_* names an expression or document uses, histogram series folded to their metric. */
    static Set<String> referencedIn(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(text);
        while (m.find()) {
            String name = m.group();
            String base = HISTOGRAM_SERIES.matcher(name).replaceAll("");
            names.add(ALL.contains(base) ? base : name);
        }
        return names;
    }
}
