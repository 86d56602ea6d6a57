package dev.redrive.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** The soak's downstream: counts each 2xx it answers per entry (a life), and flaps between modes. */
final class SoakDownstream {

    enum Mode { HEALTHY, NORMAL, SLOW, TIMEOUTS, ERRORS, OUTAGE, HOSTILE }

    static final Pattern SOAK = Pattern.compile("\"soak\":(\\d+),\"kind\":\"(\\w+)\"");
    final HttpServer server;
    final int port;
    volatile Mode mode = Mode.NORMAL;
    final AtomicLong calls = new AtomicLong();
    /** Answers with a huge body or an absurd Retry-After. */
    final AtomicLong hostile = new AtomicLong();
    /** The first entry id seen per soak-id: poison and terminal jobs fail only in that life. */
    final Map<Long, String> firstLife = new ConcurrentHashMap<>();

    private final SoakRun run;

    SoakDownstream(SoakRun run) throws IOException {
        this.run = run;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/job", this::handle);
        server.start();
        port = server.getAddress().getPort();
    }

    void handle(HttpExchange x) throws IOException {
        calls.incrementAndGet();
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String jobId = x.getRequestHeaders().getFirst("Redrive-Job-Id");
        String entry = jobId == null ? "" : jobId.substring(jobId.indexOf('/') + 1);
        int attempt = Integer.parseInt(x.getRequestHeaders().getFirst("Redrive-Attempt"));
        Matcher m = SOAK.matcher(body);
        if (!m.find()) {
            answer(x, 400);
            return;
        }
        long soak = Long.parseLong(m.group(1));
        String kind = m.group(2);
        boolean first = firstLife.computeIfAbsent(soak, k -> entry).equals(entry);
        run.ledger.attempted(entry);
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        Mode now = mode;
        // Hostile now and then in normal times, often in a hostile window: never a 2xx, so the
        // ledger need not guess whether redrive took a cut-off reply for a success.
        if (now != Mode.HEALTHY && rnd.nextInt(100) < (now == Mode.HOSTILE ? 30 : 1)) {
            hostile.incrementAndGet();
            if (rnd.nextBoolean()) {
                hugeBody(x);
            } else {
                absurdRetryAfter(x, rnd);
            }
            return;
        }
        switch (now) {
            case OUTAGE -> {
                answer(x, 503);
                return;
            }
            case ERRORS -> {
                if (rnd.nextInt(100) < 40) {
                    answer(x, rnd.nextBoolean() ? 500 : 503);
                    return;
                }
            }
            case TIMEOUTS -> {
                if (rnd.nextInt(100) < 30) {
                    // Past the service's timeout, then an error: a late 2xx would be a success the
                    // service never saw, which no invariant could account for.
                    SoakRun.sleep(SoakService.HTTP_TIMEOUT.toMillis() + 1500);
                    answer(x, 504);
                    return;
                }
            }
            case SLOW -> SoakRun.sleep(200 + rnd.nextInt(1000));
            case NORMAL -> {
                if (rnd.nextInt(100) < 3) {
                    answer(x, 500);
                    return;
                }
            }
            case HEALTHY, HOSTILE -> { }
        }
        if (first && kind.equals("poison")) {
            // While draining, a 422 parks it at once: its retries would otherwise be the circuit's
            // probes one after the other, each failing and keeping the circuit open (README).
            answer(x, now == Mode.HEALTHY ? 422 : 500);
            return;
        }
        if (kind.equals("flaky") && attempt == 1) {
            answer(x, 500);
            return;
        }
        if (first && kind.equals("terminal")) {
            answer(x, 422);
            return;
        }
        run.ledger.succeeded(entry);
        answer(x, 200);
    }

    /** A 500 that says its body is 1 GiB and streams it until the service hangs up (or 64 MiB are sent). */
    static void hugeBody(HttpExchange x) throws IOException {
        x.sendResponseHeaders(500, 1L << 30);
        byte[] chunk = new byte[64 * 1024];
        java.util.Arrays.fill(chunk, (byte) 'x');
        try (OutputStream body = x.getResponseBody()) {
            for (int i = 0; i < 1024; i++) {
                body.write(chunk);
            }
        } catch (IOException e) {
            // the service stopped reading: what it should do
        } finally {
            x.close();
        }
    }

    /** A 429 or 503 whose Retry-After is decades away, past a long's milliseconds, or a date in 2099. */
    static void absurdRetryAfter(HttpExchange x, ThreadLocalRandom rnd) throws IOException {
        String[] hints = {"31536000000", "9223372036854775807", "Wed, 21 Oct 2099 07:28:00 GMT"};
        x.getResponseHeaders().add("Retry-After", hints[rnd.nextInt(hints.length)]);
        answer(x, rnd.nextBoolean() ? 429 : 503);
    }

    static void answer(HttpExchange x, int status) throws IOException {
        x.sendResponseHeaders(status, -1);
        x.close();
    }

    /** A new mode every 10-35 s: normal between each of slow, hostile, timeouts, errors and outage, in turn. */
    void flap() {
        Mode[] cycle = {Mode.NORMAL, Mode.SLOW, Mode.NORMAL, Mode.HOSTILE, Mode.NORMAL, Mode.TIMEOUTS, Mode.NORMAL,
                Mode.ERRORS, Mode.NORMAL, Mode.OUTAGE};
        for (int i = 0; run.running(); i++) {
            Mode next = cycle[i % cycle.length];
            if (next != Mode.NORMAL) {
                run.faults.add("downstream " + next.name().toLowerCase());
            }
            mode = next;
            run.sleepWhileRunning(10_000 + ThreadLocalRandom.current().nextInt(25_000));
        }
    }

    void stop() {
        server.stop(0);
    }
}
