package dev.redrive.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;

/**
 * The lines one logger writes while a test runs, as the log shows them (the message formatted),
 * to check what reaches the operator's log: open it before the act, read {@link #lines()}, close
 * it after (try-with-resources). Works in a {@code @QuarkusTest}, whose logging is the JBoss log
 * manager's, and in a plain unit test.
 */
public final class LogLines implements AutoCloseable {

    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage()
                    : new java.util.logging.SimpleFormatter().formatMessage(record));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogLines(String loggerName) {
        this.logger = Logger.getLogger(loggerName);
        logger.addHandler(handler);
    }

    /** Captures what the logger of {@code owner} (its class name) writes from now on. */
    public static LogLines of(Class<?> owner) {
        return new LogLines(owner.getName());
    }

    /** Captures what the logger named {@code name} writes from now on. */
    public static LogLines named(String name) {
        return new LogLines(name);
    }

    /** Every message so far, each as one string (a line break in it would be a forged line). */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The messages so far that contain {@code text}. */
    public List<String> containing(String text) {
        return lines.stream().filter(l -> l.contains(text)).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
