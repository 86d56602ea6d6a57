package dev.redrive.bench;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * 3. The bulk replay through the operator API (POST /dlq/{dlq}/redrives, no rate limit) of N/2
 * dead letters parked by the project's own dead-letter.lua, after one warm-up redrive; then the
 * peers' raw Lua replay beside it ({@link RawReplay}).
 */
final class BulkReplay {

    private final Harness h;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String dlq = URLEncoder.encode(Harness.DLQ, StandardCharsets.UTF_8);
    private final String auth = "Basic " + Base64.getEncoder().encodeToString(
            (Harness.BENCH_USER + ":" + Harness.BENCH_PASSWORD).getBytes(StandardCharsets.UTF_8));

    BulkReplay(Harness h) {
        this.h = h;
    }

    void run(Service s) throws Exception {
        Map<String, Object> redrive = line(s, "bulk replay (one redrive task) entries/s", Map.of());
        if (redrive != null) {
            new RawReplay(h).beside(Math.max(10, h.jobs / 2), redrive);
        }
    }

    /** The bulk replay's line (emitted), or null when the API is not there. */
    Map<String, Object> line(Service s, String name, Map<String, Object> more) throws Exception {
        int n = Math.max(10, h.jobs / 2);
        HttpResponse<String> probe = http.send(HttpRequest.newBuilder(URI.create(s.api() + "/dlq/" + dlq + "/redrives/none"))
                .header("Authorization", auth).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (probe.statusCode() == 404 && !probe.body().contains("problem")) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "bulk replay (one redrive task, no rate limit)");
            m.put("jobs", n);
            m.put("not_measured", "API not merged (GET /dlq/" + dlq + "/redrives/... answered 404)");
            h.emit(m);
            return null;
        }
        DeadLetters seed = new DeadLetters(h);
        // Like every other figure, measured in a warmed-up process: the first redrive of a fresh JVM
        // spends most of its service CPU in the JIT compiling the paths it takes for the first time.
        Figures.log("replay: warm-up, %,d dead letters redriven (not recorded)", n);
        seed.park(n);
        HttpResponse<String> warm = post(s, 0);
        Figures.check(warm.statusCode() == 202, "POST redrives answered %d: %s", warm.statusCode(), warm.body());
        String warmState = Figures.jsonField(await(s, Figures.jsonField(warm.body(), "id")), "state");
        Figures.check("completed".equals(warmState), "the warm-up redrive ended %s", warmState);
        Figures.log("replay: seeding %,d dead letters with dead-letter.lua", n);
        seed.park(n);
        long dlqBefore = h.call("XLEN", Harness.DLQ).toLong();
        // "No rate limit" is maxPerSecond 0; an API that refuses it (400) is asked for its ceiling
        // instead, and the result says so.
        String note = "maxPerSecond 0 (no limit)";
        s.mark();
        double cpu0 = h.redisCpu();
        long t0 = System.nanoTime();
        HttpResponse<String> created = post(s, 0);
        if (created.statusCode() == 400) {
            note = "the API refused maxPerSecond 0 (400: " + created.body().replaceAll("\\s+", " ") + "); ran at 10000, "
                    + "its documented ceiling";
            Figures.log("replay: %s", note);
            s.mark();
            cpu0 = h.redisCpu();
            t0 = System.nanoTime();
            created = post(s, 10_000);
        }
        Figures.check(created.statusCode() == 202, "POST redrives answered %d: %s", created.statusCode(), created.body());
        String task = Figures.jsonField(created.body(), "id");
        if (task == null) {
            task = Figures.jsonField(created.body(), "task");
        }
        Figures.check(task != null, "no task id in %s", created.body());
        String body = await(s, task);
        String state = String.valueOf(Figures.jsonField(body, "state"));
        long t1 = System.nanoTime();
        double cpu1 = h.redisCpu();
        String movedText = Figures.jsonField(body, "moved");
        int moved = movedText == null ? 0 : Integer.parseInt(movedText.trim());
        Map<String, Object> extra = Figures.line("state", state, "moved", moved, "asked", n, "rate", note,
                "dlq_before", dlqBefore, "dlq_after", h.call("XLEN", Harness.DLQ).toLong());
        // entries/s of what moved in the window (all of it, unless the task outlived the 120 s limit)
        extra.putAll(more);
        return new Gate(h).report(s, name, Math.max(1, moved), new long[] {t0, t1}, cpu1 - cpu0, extra);
    }

    /** Polls a redrive until it leaves counting/canary/running (or 120 s pass); its last status. */
    private String await(Service s, String task) throws Exception {
        String body = "";
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(120)) {
            body = http.send(HttpRequest.newBuilder(URI.create(s.api() + "/dlq/" + dlq + "/redrives/" + task))
                    .header("Authorization", auth).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
            String state = String.valueOf(Figures.jsonField(body, "state"));
            if (!state.equals("counting") && !state.equals("canary") && !state.equals("running")) {
                break;
            }
            // Each poll is an authenticated HTTP request the service answers on the same two cores:
            // every 20 ms keeps the harness's share small and the window exact to 20 ms.
            Thread.sleep(20);
        }
        return body;
    }

    private HttpResponse<String> post(Service s, int maxPerSecond) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(s.api() + "/dlq/" + dlq + "/redrives"))
                .header("Authorization", auth).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"filter\":{},\"maxPerSecond\":" + maxPerSecond + "}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
