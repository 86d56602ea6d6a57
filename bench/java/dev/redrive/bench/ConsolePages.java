package dev.redrive.bench;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redrive.deadletter.Fingerprint;

/**
 * 8. The operator console over a deep dead-letter stream: Overview and Causes read counters, the
 * Entries page reads one page of a filter (issue 13: under 300 ms, 300 ms, 1 s).
 */
final class ConsolePages {

    private final Harness h;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    ConsolePages(Harness h) {
        this.h = h;
    }

    void run(int n) throws Exception {
        h.fresh();
        // Five causes, one of them rare (1 in 100): the filtered page has to look past many entries.
        List<Fingerprint> causes = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String reason = i == 0 ? "card declined for order " + i
                    : List.of("HTTP 503 from ledger", "timeout after 30000 ms", "field 'sku' missing in doc " + i,
                            "connection refused by 10.0.0." + i).get(i % 4);
            reasons.add(reason);
            causes.add(Fingerprint.of("bench-error", reason));
        }
        Figures.log("console: seeding %,d dead letters in %s with dead-letter.lua", n, Harness.DLQ);
        new DeadLetters(h).park(n, causes, reasons);
        Figures.check(h.call("XLEN", Harness.DLQ).toLong() == n, "seeded %d, want %d", h.call("XLEN", Harness.DLQ).toLong(), n);
        String rare = causes.get(0).id();
        String dlq = URLEncoder.encode(Harness.DLQ, StandardCharsets.UTF_8);
        try (Service s = Service.start(h, "console", "noop", Map.of())) {
            String cookie = login(s);
            time(s, cookie, "console Overview (100,000 dead letters)", "/console", n, 300);
            time(s, cookie, "console Causes (100,000 dead letters)", "/console/dlq/" + dlq + "/causes", n, 300);
            time(s, cookie, "console Entries filtered to a 1% cause (100,000 dead letters)",
                    "/console/dlq/" + dlq + "/entries?fingerprint=" + rare + "&text=declined", n, 1000);
        }
    }

    /** A console session (form login as the bench user): its cookie. */
    private String login(Service s) throws Exception {
        // The login form's CSRF token: the cookie the login page sets, sent back in the form's query.
        String csrf = http.send(HttpRequest.newBuilder(URI.create(s.api() + "/console/login")).GET().build(),
                HttpResponse.BodyHandlers.discarding()).headers().allValues("set-cookie").stream()
                .filter(c -> c.startsWith("redrive-csrf=")).map(c -> c.substring("redrive-csrf=".length(), c.indexOf(';')))
                .findFirst().orElse("");
        HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(s.api()
                + "/console/j_security_check?csrf-token=" + csrf))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", "redrive-csrf=" + csrf)
                .POST(HttpRequest.BodyPublishers.ofString("j_username=" + Harness.BENCH_USER + "&j_password="
                        + Harness.BENCH_PASSWORD))
                .build(), HttpResponse.BodyHandlers.ofString());
        String cookie = login.headers().allValues("set-cookie").stream().filter(c -> c.startsWith("redrive-console="))
                .map(c -> c.substring(0, c.indexOf(';'))).findFirst().orElse(null);
        Figures.check(cookie != null, "console login answered %d without a session cookie", login.statusCode());
        return cookie;
    }

    /** 20 warm-up requests, then 50 timed ones, one after the other; a JSON line of their times. */
    private void time(Service s, String cookie, String name, String path, int n, int targetMs) throws Exception {
        HttpRequest get = HttpRequest.newBuilder(URI.create(s.api() + path)).header("Cookie", cookie).GET().build();
        List<Double> ms = new ArrayList<>();
        int bytes = 0;
        for (int i = 0; i < 70; i++) {
            long t0 = System.nanoTime();
            HttpResponse<String> r = http.send(get, HttpResponse.BodyHandlers.ofString());
            double took = (System.nanoTime() - t0) / 1e6;
            Figures.check(r.statusCode() == 200, "%s answered %d: %s", path, r.statusCode(), r.body());
            bytes = r.body().length();
            if (i >= 20) {
                ms.add(took);
            }
        }
        ms.sort(null);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("dead_letters", n);
        m.put("path", path);
        m.put("requests", ms.size());
        m.put("p50_ms", Figures.round1(ms.get(ms.size() / 2)));
        m.put("p95_ms", Figures.round1(ms.get((int) Math.ceil(ms.size() * 0.95) - 1)));
        m.put("max_ms", Figures.round1(ms.get(ms.size() - 1)));
        m.put("target_ms", targetMs);
        m.put("met", ms.get((int) Math.ceil(ms.size() * 0.95) - 1) < targetMs);
        m.put("page_chars", bytes);
        h.emit(m);
    }
}
