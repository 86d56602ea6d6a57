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
            // HTTP/1.1 and a time limit: the JDK client's default h2c upgrade once hung a test here
            // for ten minutes against a management port that curl read in 26 ms.
            String body = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(java.time.Duration.ofSeconds(5)).build().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/q/metrics"))
                    .timeout(java.time.Duration.ofSeconds(10)).build(),
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
