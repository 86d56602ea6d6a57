package dev.redrive.worker;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

/**
 * Logs a periodic Redis call that keeps failing once when it starts failing and once when it
 * works again: during an outage a 100 ms poll would otherwise write ten lines a second per queue
 * and bury the one line that says what happened.
 */
final class OutageLog {

    private final Logger log;
    private final String what;
    private final AtomicBoolean failing = new AtomicBoolean();

    /** {@code what} names the call, e.g. "looking for due retries of orders". */
    OutageLog(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    void failed(Throwable error) {
        if (failing.compareAndSet(false, true)) {
            log.warnf("%s failed (%s); trying again on every tick, quietly until it works again", what, error.getMessage());
        }
    }

    void worked() {
        if (failing.compareAndSet(true, false)) {
            log.infof("%s works again", what);
        }
    }
}
