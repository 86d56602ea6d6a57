package dev.redrive.bench;

import java.io.IOException;

/**
 * A measured window of a running service, everything taken at its start: the JIT's CPU, the
 * service's CPU mark (Redis's command stats reset with it), Redis's slow log reset, Redis's CPU and
 * the clock.
 */
final class Window {

    private final Harness h;
    private final Service s;
    private final double jit0, cpu0;
    private final long t0;

    Window(Harness h, Service s, RedisProbe probe) throws Exception {
        this.h = h;
        this.s = s;
        jit0 = s.jitSeconds();
        s.mark();
        probe.slowlogReset();
        cpu0 = h.redisCpu();
        t0 = System.nanoTime();
    }

    double seconds() {
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Redis's CPU since the start, in seconds. */
    double redisCpuSeconds() throws Exception {
        return h.redisCpu() - cpu0;
    }

    /** The JIT compiler threads' CPU since the start, in seconds. */
    double jitSeconds() throws IOException {
        return s.jitSeconds() - jit0;
    }
}
