package dev.redrive.deadletter;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import dev.redrive.job.LogText;
import dev.redrive.retry.FailureKind;

/**
 * The operator's log line for each parked job, summarised in bursts: the first few parks of a
 * cause (dead-letter stream and fingerprint) in a window are logged whole, the rest of that window
 * are counted and reported in one line when it closes. An outage that parks thousands of jobs
 * then writes a handful of lines per cause, not thousands; every record is in the stream anyway.
 */
final class ParkLog {

    private static final Logger LOG = Logger.getLogger(DeadLetterWriter.class);
    static final int WHOLE_PER_WINDOW = 10;

    private record Cause(String deadLetters, String fingerprint) {
    }

    private static final class Window {
        final AtomicInteger logged = new AtomicInteger();
        final AtomicInteger summarised = new AtomicInteger();
        volatile String text;
    }

    private final Map<Cause, Window> windows = new ConcurrentHashMap<>();

    void parked(String deadLetters, DeadLetterRecord record, String dlqId) {
        Window window = windows.computeIfAbsent(new Cause(deadLetters, record.fingerprint().id()), c -> new Window());
        if (window.logged.incrementAndGet() <= WHOLE_PER_WINDOW && FailureKind.MISSING.wireName().equals(record.failureKind())) {
            trimmed(deadLetters, record, dlqId);
        } else if (window.logged.get() <= WHOLE_PER_WINDOW) {
            LOG.warnf("parked job %s/%s (%s) after %d of %d attempts: %s: %s; it is %s/%s, replay with "
                    + "POST /dlq/%s/entries/%s/replay once the cause is fixed",
                    record.originStream(), record.originId(), record.failureKind(), record.attempts(),
                    record.maxAttempts(), LogText.of(record.errorType()), LogText.of(record.reason()), deadLetters, dlqId,
                    URLEncoder.encode(deadLetters, StandardCharsets.UTF_8), dlqId);
        } else {
            window.text = record.fingerprint().text();
            window.summarised.incrementAndGet();
        }
    }

    /** A job whose entry was trimmed: what is lost, and what an operator can still do. */
    private static void trimmed(String deadLetters, DeadLetterRecord record, String dlqId) {
        LOG.warnf("trimmed job %s/%s: its stream entry was trimmed (XTRIM, MAXLEN, XDEL) before it completed, after "
                + "%d of %d attempts; parked as missing in %s/%s with what is still known (%s), but its fields are "
                + "lost, so it cannot be replayed: send it again from its source, and trim %s less (MAXLEN above "
                + "what the queue holds while jobs run and wait for their retries)", record.originStream(),
                record.originId(), record.attempts(), record.maxAttempts(), deadLetters, dlqId, LogText.of(record.reason()),
                record.originStream());
    }

    /** Closes the window: reports what was only counted, and starts counting afresh. */
    void closeWindow(long seconds) {
        windows.forEach((cause, window) -> {
            int more = window.summarised.get();
            if (more > 0) {
                LOG.warnf("parked %d more jobs in %s in the last %d s with the same cause as above (fingerprint %s: %s); "
                        + "GET /dlq/%s/entries?fingerprint=%s lists them", more, cause.deadLetters(), seconds,
                        cause.fingerprint(), LogText.of(window.text), URLEncoder.encode(cause.deadLetters(), StandardCharsets.UTF_8),
                        cause.fingerprint());
            }
        });
        windows.clear();
    }
}
