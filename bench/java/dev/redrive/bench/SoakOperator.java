package dev.redrive.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The soak's operator: lists what is parked, replays some one by one, and starts a redrive now and then. */
final class SoakOperator {

    private final SoakRun run;

    SoakOperator(SoakRun run) {
        this.run = run;
    }

    void run(List<SoakService> fleet) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        String auth = "Basic " + java.util.Base64.getEncoder().encodeToString((SoakService.USER + ":" + SoakService.PASSWORD).getBytes(StandardCharsets.UTF_8));
        String dlq = URLEncoder.encode(SoakRun.DLQ, StandardCharsets.UTF_8);
        Pattern ids = Pattern.compile("\"id\"\\s*:\\s*\"(\\d+-\\d+)\"");
        long lastRedrive = System.nanoTime();
        run.sleepWhileRunning(15_000);
        while (run.running()) {
            SoakService s = fleet.get(ThreadLocalRandom.current().nextInt(fleet.size()));
            String base = "http://127.0.0.1:" + s.httpPort() + "/dlq/" + dlq;
            try {
                if (System.nanoTime() - lastRedrive > TimeUnit.SECONDS.toNanos(60)) {
                    lastRedrive = System.nanoTime();
                    int status = send(http, HttpRequest.newBuilder(URI.create(base + "/redrives")).header("Authorization", auth)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"filter\":{\"origin\":\"soak\"},\"maxPerSecond\":50,\"note\":\"soak redrive\"}")));
                    run.operator.add("redrive " + status);
                } else {
                    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/entries?count=20&order=oldest"))
                            .header("Authorization", auth).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                    run.operator.add("list " + page.statusCode());
                    Matcher m = ids.matcher(page.statusCode() == 200 ? page.body() : "");
                    for (int n = 0; n < 5 && m.find(); n++) {
                        int status = send(http, HttpRequest.newBuilder(URI.create(base + "/entries/" + m.group(1) + "/replay"))
                                .header("Authorization", auth).header("Content-Type", "application/json")
                                .header("Idempotency-Key", UUID.randomUUID().toString())
                                .POST(HttpRequest.BodyPublishers.ofString("{\"note\":\"soak replay\"}")));
                        run.operator.add("replay " + status);
                    }
                }
            } catch (IOException e) {
                run.operator.add("unreachable (service down or Redis paused)");
            } catch (InterruptedException e) {
                return;
            }
            run.sleepWhileRunning(5_000);
        }
    }

    private static int send(HttpClient http, HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
