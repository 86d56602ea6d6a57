package dev.redrive.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Reads one sample from a running process's /q/metrics. */
final class Metrics {

    private Metrics() {
    }

    /** Sum of every sample of the metric whose labels contain {@code labelFragment}. */
    static double sum(int managementPort, String metric, String labelFragment) {
        try {
            String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            double total = 0;
            for (String line : body.split("\n")) {
                if ((line.startsWith(metric + "{") || line.startsWith(metric + " ")) && line.contains(labelFragment)) {
                    total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return total;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
