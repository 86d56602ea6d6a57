package dev.redrive.trace;

import static io.restassured.RestAssured.given;
import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import dev.redrive.testing.TracingProfile;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.opentelemetry.runtime.config.runtime.OTelRuntimeConfig;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/**
 * Following one job through its attempts, its park and its replay, with the spans read from the
 * OpenTelemetry SDK's in-memory exporter (README, "Tracing").
 */
@QuarkusTest
@TestProfile(TracingProfile.class)
class TracingTest {

    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("redrive.job.attempt");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("redrive.job.outcome");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    @Inject
    @Own("traced")
    TestQueue traced;

    @Inject
    @Own("calls")
    TestQueue calls;

    @Inject
    RedisDataSource redis;

    @Inject
    InMemorySpanExporter exporter;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @Inject
    OTelRuntimeConfig otel;

    Downstream downstream;

    /** application.properties' batch span processor sizes are the ones Quarkus reads (its keys have dots: max.queue.size). */
    @Test
    void theBatchSpanProcessorIsSizedAsDocumented() {
        assertEquals(32768, otel.bsp().maxQueueSize());
        assertEquals(4096, otel.bsp().maxExportBatchSize());
        assertEquals(java.time.Duration.ofMillis(100), otel.bsp().scheduleDelay());
    }

    @Test
    void aJobThatFailsTwiceGivesThreeAttemptSpansTheFirstInTheProducersTrace() {
        SpanContext producer = producer();
        String id = traced.add(Map.of("kind", "flaky:2", "traceparent", Traceparent.of(producer)));
        List<SpanData> spans = attempts(traced.stream(), id, 3);

        SpanData first = spans.get(0);
        assertEquals("process " + traced.stream(), first.getName());
        assertEquals(SpanKind.CONSUMER, first.getKind());
        assertEquals(producer.getTraceId(), first.getTraceId(), "the first attempt joins the producer's trace");
        assertEquals(producer.getSpanId(), first.getParentSpanId(), "as a child of the producer's span");
        assertTrue(first.getLinks().isEmpty());
        assertEquals("retry-later", first.getAttributes().get(OUTCOME));
        assertEquals("java.lang.IllegalStateException", first.getAttributes().get(ERROR_TYPE));
        assertEquals(StatusCode.ERROR, first.getStatus().getStatusCode());
        assertEquals("redis", first.getAttributes().get(AttributeKey.stringKey("messaging.system")));
        assertEquals(traced.stream(), first.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")));
        assertEquals("redrive", first.getAttributes().get(AttributeKey.stringKey("messaging.consumer.group.name")));
        assertEquals(3L, first.getAttributes().get(AttributeKey.longKey("redrive.job.max_attempts")));

        for (SpanData retry : spans.subList(1, 3)) {
            assertNotEquals(producer.getTraceId(), retry.getTraceId(), "a retry is a trace of its own");
            assertFalse(retry.getParentSpanContext().isValid(), "a retry has no parent");
            assertEquals(List.of(producer.getTraceId() + "/" + producer.getSpanId()), links(retry),
                    "a retry links to the producer's span");
        }
        assertNotEquals(spans.get(1).getTraceId(), spans.get(2).getTraceId());
        assertEquals("retry-later", spans.get(1).getAttributes().get(OUTCOME));
        assertEquals("done", spans.get(2).getAttributes().get(OUTCOME));
        assertEquals(StatusCode.UNSET, spans.get(2).getStatus().getStatusCode());

        List<ScriptedHandler.Attempt> seen = handler.attemptsOf(traced.jobId(id));
        for (int i = 0; i < 3; i++) {
            assertEquals(spans.get(i).getSpanContext().getSpanId(), seen.get(i).currentSpan().getSpanId(),
                    "attempt " + (i + 1) + "'s span is current in the handler");
            assertEquals(Traceparent.of(producer), Streams.text(seen.get(i).fields().get("traceparent")),
                    "the job's own fields are the producer's");
        }
    }

    @Test
    void aParkedRecordHoldsItsLastAttemptsTraceAndTheMetricsNameItAsExemplar() {
        String id = traced.add(Map.of("kind", "poison", "traceparent", Traceparent.of(producer())));
        StreamMessage<String, String, byte[]> parked = Await.value("the poison job to be parked",
                () -> traced.parked(id).orElse(null));
        List<SpanData> spans = attempts(traced.stream(), id, 3);
        SpanData last = spans.get(2);
        assertEquals("parked", last.getAttributes().get(OUTCOME));
        assertEquals(Traceparent.of(last.getSpanContext()), Streams.text(parked.payload().get("last-attempt-trace")));

        Set<String> traces = exporter.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("process " + this.traced.stream())).map(SpanData::getTraceId).collect(Collectors.toSet());
        // The parked counter counts (and takes its exemplar) once dead-letter.lua has answered
        // (worker/Parking): after the record is in Redis and the attempt's span has ended. So scrape
        // once the park of this record's failure kind is counted with an exemplar, rather than once.
        Pattern counted = Pattern.compile("(?m)^redrive_jobs_dead_lettered_total\\{[^}]*failure=\""
                + Streams.text(parked.payload().get("failure")) + "\"[^}]*queue=\"traced\"[^}]*\\} \\S+ # \\{");
        String metrics = Await.value("the park of " + id + " to be counted, with an exemplar", () -> {
            String scraped = openMetrics();
            return counted.matcher(scraped).find() ? scraped : null;
        });
        String histogram = exemplarTrace(metrics, "redrive_handler_duration_seconds_bucket\\{[^}]*queue=\"traced\"[^}]*\\}");
        assertTrue(traces.contains(histogram), "the duration histogram's exemplar is an attempt of the queue: " + histogram);
        // The line of this park's failure kind: other tests of the class park on the queue for other kinds.
        String counter = exemplarTrace(metrics, "redrive_jobs_dead_lettered_total\\{[^}]*failure=\""
                + Streams.text(parked.payload().get("failure")) + "\"[^}]*queue=\"traced\"[^}]*\\}");
        assertEquals(last.getTraceId(), counter, "the parked counter's exemplar is the parking attempt");
    }

    @Test
    void aReplayIsASpanLinkedToTheParkedAttemptAndTheReplayedJobLinksToIt() {
        String id = traced.add(Map.of("kind", "terminal", "traceparent", Traceparent.of(producer())));
        StreamMessage<String, String, byte[]> parked = Await.value("the terminal job to be parked",
                () -> traced.parked(id).orElse(null));
        SpanContext parkedAttempt = Traceparent.parse(Streams.text(parked.payload().get("last-attempt-trace")));

        String newId = as("operator").contentType("application/json").body("{\"fields\": {\"kind\": \"ok\"}}")
                .post(traced.dlqPath() + "/entries/" + enc(parked.id()) + "/replay")
                .then().statusCode(201).extract().path("id");

        SpanData replay = Await.value("the replay span", () -> exporter.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("replay " + traced.dlq())
                        && parked.id().equals(s.getAttributes().get(AttributeKey.stringKey("redrive.dlq.entry_id"))))
                .findFirst().orElse(null));
        assertEquals(List.of(parkedAttempt.getTraceId() + "/" + parkedAttempt.getSpanId()), links(replay),
                "the replay links to the parked job's last attempt");
        // The request's SERVER span ends when the response has been written, which may be after the client
        // has read it: wait for it rather than look once.
        Await.until("the replay to be a child of the API request's span", () -> exporter.getFinishedSpanItems().stream()
                .anyMatch(s -> s.getKind() == SpanKind.SERVER && s.getSpanId().equals(replay.getParentSpanId())));

        StreamMessage<String, String, byte[]> entry = traced.entries().stream().filter(m -> m.id().equals(newId))
                .findFirst().orElseThrow();
        assertEquals(Traceparent.of(replay.getSpanContext()), Streams.text(entry.payload().get("traceparent")),
                "the replayed entry carries the replay's traceparent");

        SpanData attempt = attempts(traced.stream(), newId, 1).get(0);
        assertNotEquals(replay.getTraceId(), attempt.getTraceId(), "the replayed job's attempt is a trace of its own");
        assertFalse(attempt.getParentSpanContext().isValid());
        assertEquals(List.of(replay.getTraceId() + "/" + replay.getSpanId()), links(attempt),
                "the replayed job's first attempt links back to the replay");

        List<StreamMessage<String, String, String>> audit = redis.stream(String.class, String.class, String.class)
                .xrange(RedisKeys.audit(traced.dlq()), io.quarkus.redis.datasource.stream.StreamRange.of("-", "+"));
        assertTrue(audit.stream().anyMatch(a -> parked.id().equals(a.payload().get("dlq-id"))
                && replay.getTraceId().equals(a.payload().get("trace-id"))), "the audit line carries the replay's trace id: "
                + audit.stream().map(a -> a.payload().toString()).toList());
    }

    @Test
    void aRedriveStepIsASpanLinkedToTheParkedAttemptsItMoves() {
        List<StreamMessage<String, String, byte[]>> parked = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String id = traced.add(Map.of("kind", "terminal", "traceparent", Traceparent.of(producer())));
            parked.add(Await.value("job " + id + " to be parked", () -> traced.parked(id).orElse(null)));
        }
        String ids = parked.stream().map(m -> "\"" + m.id() + "\"").collect(Collectors.joining(","));
        String task = as("operator").contentType("application/json").body("{\"filter\": {\"ids\": [" + ids + "]}}")
                .post(traced.dlqPath() + "/redrives").then().statusCode(202).extract().path("id");

        SpanData step = Await.value("the redrive step's span", () -> exporter.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("redrive " + traced.dlq())
                        && task.equals(s.getAttributes().get(AttributeKey.stringKey("redrive.redrive.task")))
                        && Long.valueOf(2).equals(s.getAttributes().get(AttributeKey.longKey("redrive.replayed"))))
                .findFirst().orElse(null));
        assertEquals(parked.stream().map(m -> Traceparent.parse(Streams.text(m.payload().get("last-attempt-trace"))))
                .map(c -> c.getTraceId() + "/" + c.getSpanId()).sorted().toList(), links(step).stream().sorted().toList(),
                "the step links to the last attempt of each job it moved");
        List<StreamMessage<String, String, byte[]>> moved = traced.entries().stream()
                .filter(m -> m.payload().containsKey("redrive-task")).filter(m -> parked.stream()
                        .anyMatch(p -> (traced.dlq() + "/" + p.id()).equals(Streams.text(m.payload().get("replay-of"))))).toList();
        assertEquals(2, moved.size());
        moved.forEach(m -> assertEquals(Traceparent.of(step.getSpanContext()), Streams.text(m.payload().get("traceparent")),
                "each moved entry carries the step's traceparent"));
        List<StreamMessage<String, String, String>> audit = redis.stream(String.class, String.class, String.class)
                .xrange(RedisKeys.audit(traced.dlq()), io.quarkus.redis.datasource.stream.StreamRange.of("-", "+"));
        assertTrue(audit.stream().anyMatch(a -> "redrive-moves".equals(a.payload().get("action"))
                && task.equals(a.payload().get("task")) && step.getTraceId().equals(a.payload().get("trace-id"))),
                "the step's audit record carries its trace id");
    }

    @Test
    void theDownstreamServerReceivesTheAttemptsTraceparent() {
        SpanContext producer = producer();
        String id = calls.add(Map.of("payload", "{}", "traceparent", Traceparent.of(producer)));
        Downstream.Request request = Await.value("the call", () -> downstream.requests().stream()
                .filter(r -> ("calls/" + id).equals(r.jobId())).findFirst().orElse(null));
        SpanData attempt = attempts(calls.stream(), id, 1).get(0);
        assertEquals(producer.getTraceId(), attempt.getTraceId());
        SpanContext sent = Traceparent.parse(request.header("traceparent"));
        assertTrue(sent != null, "one valid traceparent header: " + request.header("traceparent"));
        assertEquals(attempt.getTraceId(), sent.getTraceId(), "the downstream call continues the attempt's trace");
        assertTrue(sent.getSpanId().equals(attempt.getSpanId()) || exporter.getFinishedSpanItems().stream()
                .anyMatch(s -> s.getSpanId().equals(sent.getSpanId()) && s.getParentSpanId().equals(attempt.getSpanId())),
                "its parent is the attempt, or the HTTP client span inside it: " + request.header("traceparent"));
    }

    /** A producer's span context, as a producer's SDK would write it into an entry. */
    private static SpanContext producer() {
        String hex = java.util.UUID.randomUUID().toString().replace("-", "");
        return Traceparent.parse("00-" + hex + "-" + hex.substring(0, 16) + "-01");
    }

    /** The attempt spans of one entry, by attempt number, once all {@code count} have ended. */
    private List<SpanData> attempts(String stream, String id, int count) {
        return Await.value(count + " attempt spans of " + id, () -> {
            List<SpanData> spans = exporter.getFinishedSpanItems().stream()
                    .filter(s -> s.getName().equals("process " + stream) && id.equals(s.getAttributes().get(MESSAGE_ID)))
                    .sorted(Comparator.comparing(s -> s.getAttributes().get(ATTEMPT))).toList();
            return spans.size() == count ? spans : null;
        });
    }

    private static List<String> links(SpanData span) {
        return span.getLinks().stream().map(LinkData::getSpanContext).map(c -> c.getTraceId() + "/" + c.getSpanId()).toList();
    }

    private static String openMetrics() {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        return given().port(port).accept("application/openmetrics-text; version=1.0.0; charset=utf-8")
                .get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** The trace id of the first exemplar on a sample line matching {@code series}. */
    private static String exemplarTrace(String metrics, String series) {
        Matcher m = Pattern.compile("(?m)^" + series + " \\S+ # \\{([^}]*)\\}").matcher(metrics);
        while (m.find()) {
            Matcher trace = Pattern.compile("trace_id=\"([0-9a-f]{32})\"").matcher(m.group(1));
            if (trace.find()) {
                return trace.group(1);
            }
        }
        throw new AssertionError("no exemplar on " + series + " in\n" + metrics.lines()
                .filter(l -> l.contains("queue=\"traced\"")).collect(Collectors.joining("\n")));
    }

}
