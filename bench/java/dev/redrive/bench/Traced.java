package dev.redrive.bench;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpServer;

import dev.redrive.testing.OtlpBodies;

/**
 * 7. What tracing costs (issues 14 and 27): per rep, the success path untraced, traced at sampler
 * 1.0 and traced at 0.1 (each its own service: they can't share the group at once; the order
 * rotates), each warmed up by two drains, and right beside them the SDK's floor (the peers'
 * {@code jvm/OtelFloor}: one span started, ended, batched and exported over OTLP/HTTP, paced at
 * the traced rep's own rate). Spans go to a sink here that counts what arrives; the service's own
 * counters ({@code redrive_trace_spans_{ended,exported,dropped}_total}) are read before and after
 * each timed drain, once its export has settled (exported + dropped = ended, or 10 s). A run's
 * service CPU runs from the drain's start to 300 ms after its end (three export batches' time),
 * so a traced run's spans' export is part of it, as it is of the floor's.
 */
final class Traced {

    static final byte[] SPAN_NAME = ("process " + Harness.STREAM).getBytes(StandardCharsets.UTF_8);

    final Harness h;
    final Gate gate;
    final AtomicLong received = new AtomicLong();
    final HttpServer sink;
    final List<String> otlp;
    final OtelFloor floor;

    Traced(Harness h) throws Exception {
        this.h = h;
        this.gate = new Gate(h);
        sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        sink.createContext("/", ex -> {
            received.addAndGet(OtlpBodies.count(ex.getRequestBody().readAllBytes(), SPAN_NAME));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        sink.start();
        otlp = List.of("-Dquarkus.otel.exporter.otlp.endpoint=http://127.0.0.1:" + sink.getAddress().getPort(),
                "-Dquarkus.otel.exporter.otlp.protocol=http/protobuf");
        floor = new OtelFloor(h, sink.getAddress().getPort());
    }

    static void run(Harness h) throws Exception {
        Traced t = new Traced(h);
        try {
            t.reps();
        } finally {
            t.sink.stop(0);
        }
    }

    void reps() throws Exception {
        Map<String, List<Map<String, Object>>> runs = new LinkedHashMap<>();
        List<Double> floors = new ArrayList<>();
        List<String> kinds = List.of("untraced", "traced", "ratio 0.1");
        for (int rep = 1; rep <= h.reps; rep++) {
            Map<String, Map<String, Object>> pair = new LinkedHashMap<>();
            for (int i = 0; i < kinds.size(); i++) {
                String kind = kinds.get((i + rep - 1) % kinds.size()); // rotate the order
                pair.put(kind, timed(kind, rep));
                runs.computeIfAbsent(kind, k -> new ArrayList<>()).add(pair.get(kind));
            }
            Double floor = this.floor.run(((Number) pair.get("traced").get("jobs_per_s")).intValue(), rep);
            double extra = cpu(pair.get("traced")) - cpu(pair.get("untraced"));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "tracing cost, rep pair: extra service CPU per traced job vs the SDK floor per span");
            m.put("rep", rep);
            m.put("untraced_jobs_per_s", pair.get("untraced").get("jobs_per_s"));
            m.put("traced_jobs_per_s", pair.get("traced").get("jobs_per_s"));
            m.put("ratio01_jobs_per_s", pair.get("ratio 0.1").get("jobs_per_s"));
            m.put("extra_cpu_us_per_traced_job", Figures.round2(extra));
            m.put("floor_cpu_us_per_span", floor);
            m.put("extra_vs_floor", floor == null ? null : Figures.round2(extra / floor));
            m.put("ratio01_extra_cpu_us_per_job", Figures.round2(cpu(pair.get("ratio 0.1")) - cpu(pair.get("untraced"))));
            h.emit(m);
            if (floor != null) {
                floors.add(floor);
            }
        }
        summary(runs, floors);
    }

    static double cpu(Map<String, Object> run) {
        return ((Number) run.get("service_cpu_us_per_job")).doubleValue();
    }

    /** One service of the kind, two warm-up drains, one timed drain; its line with the span counts of the timed drain. */
    Map<String, Object> timed(String kind, int rep) throws Exception {
        h.fresh();
        List<String> jvm = new ArrayList<>();
        if (!kind.equals("untraced")) {
            jvm.addAll(otlp);
            jvm.add("-Dquarkus.otel.traces.sampler.arg=" + (kind.equals("traced") ? "1.0" : "0.1"));
        }
        String tag = kind.replace(' ', '-').replace(".", "");
        try (Service s = Service.start(h, tag, "noop", Map.of(), jvm)) {
            gate.warmUp(s, h.jobs);
            gate.warmUp(s, h.jobs);
            long[] before = settled(s, 10);
            long received0 = received.get();
            gate.stage(h.jobs);
            String name = "tracing run: " + (kind.equals("untraced") ? "untraced success path"
                    : "traced success path (sampler " + (kind.equals("traced") ? "1.0" : "0.1") + ", OTLP/HTTP)");
            s.mark();
            double redis0 = h.redisCpu();
            gate.open();
            long[] window = gate.watch(0, h.jobs, 0, java.time.Duration.ofSeconds(120), () -> 0L, -1);
            double redis1 = h.redisCpu();
            // The service CPU to the end of the timed spans' export (batches go every 100 ms), read
            // before any scrape of /q/metrics: one costs the service ~17 ms of CPU on this box.
            // Untraced runs wait the same, so both carry the same idle tail.
            Thread.sleep(300);
            double cpuS = s.cpuSeconds() - s.cpuMark;
            long[] after = settled(s, 10);
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("rep", rep);
            extra.put("kind", kind);
            extra.put("service_cpu_us_per_job", Figures.round2(cpuS * 1e6 / h.jobs));
            if (!kind.equals("untraced")) {
                extra.put("spans_created", after[0] - before[0]);
                extra.put("spans_exported", after[1] - before[1]);
                extra.put("spans_dropped_queue_full", after[2] - before[2]);
                extra.put("spans_dropped_export_failed", after[3] - before[3]);
                extra.put("spans_at_sink", received.get() - received0);
            }
            Map<String, Object> line = gate.report(s, name, h.jobs, window, redis1 - redis0, extra);
            return line;
        }
    }

    /** The service's span counters {ended, exported, queue_full, export_failed} once exported + dropped = ended. */
    static long[] settled(Service s, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            String text = s.metrics();
            long[] c = {count(text, "redrive_trace_spans_ended_total"), count(text, "redrive_trace_spans_exported_total"),
                    count(text, "redrive_trace_spans_dropped_total{reason=\"queue_full\"}"),
                    count(text, "redrive_trace_spans_dropped_total{reason=\"export_failed\"}")};
            if (c[0] == c[1] + c[2] + c[3] || System.nanoTime() > deadline) {
                return c;
            }
            Thread.sleep(100);
        }
    }

    static long count(String metrics, String prefix) {
        Double v = Figures.metric(metrics, prefix + " ");
        return v == null ? 0 : v.longValue();
    }

    void summary(Map<String, List<Map<String, Object>>> runs, List<Double> floors) {
        double off = Figures.median(runs.get("untraced"), "jobs_per_s");
        double on = Figures.median(runs.get("traced"), "jobs_per_s");
        double tenth = Figures.median(runs.get("ratio 0.1"), "jobs_per_s");
        double extra = Figures.median(runs.get("traced"), "service_cpu_us_per_job") - Figures.median(runs.get("untraced"), "service_cpu_us_per_job");
        double floor = floors.isEmpty() ? Double.NaN : floors.stream().sorted().toList().get(floors.size() / 2);
        long dropped = 0;
        for (Map<String, Object> r : runs.get("traced")) {
            dropped += ((Number) r.get("spans_dropped_queue_full")).longValue() + ((Number) r.get("spans_dropped_export_failed")).longValue();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "tracing cost: medians of each (target: extra CPU per traced job <= 1.5x the floor, nothing dropped; "
                + "ratio 0.1 >= 95% of untraced)");
        m.put("jobs", h.jobs);
        m.put("untraced_median_jobs_per_s", Math.round(off));
        m.put("traced_median_jobs_per_s", Math.round(on));
        m.put("traced_share_pct", Figures.round1(on / off * 100));
        m.put("ratio01_median_jobs_per_s", Math.round(tenth));
        m.put("ratio01_share_pct", Figures.round1(tenth / off * 100));
        m.put("extra_cpu_us_per_traced_job", Figures.round2(extra));
        m.put("floor_cpu_us_per_span", floors.isEmpty() ? null : floor);
        m.put("extra_vs_floor", floors.isEmpty() ? null : Figures.round2(extra / floor));
        m.put("spans_dropped_traced_reps", dropped);
        h.emit(m);
    }
}
