package dev.redrive.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import jakarta.enterprise.util.TypeLiteral;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.config.QueueSpec;
import dev.redrive.job.FieldValues;
import dev.redrive.job.Job;
import dev.redrive.job.JobFailedException;
import dev.redrive.job.JobHandler;
import dev.redrive.job.TerminalJobException;
import io.netty.buffer.Unpooled;
import io.smallrye.faulttolerance.api.CircuitBreakerState;
import io.smallrye.faulttolerance.api.TypedGuard;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * POSTs a job to the queue's URL (the HTTP contract is in README, "HTTP handler"). One call is
 * one attempt: the guard has a circuit breaker and a bulkhead, and no retry, because retries
 * inside an attempt would multiply load behind redrive's own budget. The call's time limit
 * ({@code http.timeout}) is the call's own, counted from when the bulkhead lets it go: Fault
 * Tolerance's timeout would wrap the bulkhead, so a job waiting for a slot behind slow calls
 * would spend its budget, and an attempt, without being sent.
 */
public final class HttpJobHandler implements JobHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    // Header names and the default type once, as Netty's AsciiString: no encoding or hashing per call.
    private static final CharSequence CONTENT_TYPE = HttpHeaders.createOptimized("Content-Type");
    private static final CharSequence JOB_ID = HttpHeaders.createOptimized("Redrive-Job-Id");
    private static final CharSequence STREAM = HttpHeaders.createOptimized("Redrive-Stream");
    private static final CharSequence JOB = HttpHeaders.createOptimized("Redrive-Job");
    private static final CharSequence ATTEMPT = HttpHeaders.createOptimized("Redrive-Attempt");
    private static final CharSequence MAX_ATTEMPTS = HttpHeaders.createOptimized("Redrive-Max-Attempts");
    private static final CharSequence IDEMPOTENCY_KEY = HttpHeaders.createOptimized("Idempotency-Key");
    private static final CharSequence TRACEPARENT = HttpHeaders.createOptimized("traceparent");
    private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");

    private final QueueSpec spec;
    private final HttpClient client;
    private final Vertx vertx;
    /** The queue's URL parsed once (host, port, path, TLS); each call copies these four. */
    private final RequestOptions target;
    private final TypedGuard<CompletionStage<Void>> guard;
    private final boolean traced;

    /**
     * @param traced tracing is on: the call is a span of its own inside the attempt's (Quarkus'
     *        Vert.x tracing), and its {@code traceparent} header is that span's, so the entry's field
     *        is not sent as well (two traceparent headers would be no valid trace context at all)
     */
    public HttpJobHandler(Vertx vertx, HttpClient client, QueueSpec spec, Consumer<CircuitBreakerState> onCircuit,
            boolean traced) {
        this.spec = spec;
        this.client = client;
        this.vertx = vertx;
        this.traced = traced;
        this.target = new RequestOptions().setAbsoluteURI(spec.httpUrl().toString());
        var cb = spec.circuitBreaker();
        // Guarding a CompletionStage, not a Uni: Fault Tolerance would turn a Uni into its own future
        // and back on every call, each way through Mutiny steps that capture the context.
        this.guard = TypedGuard.create(new TypeLiteral<CompletionStage<Void>>() {
        })
                .withDescription("redrive http handler of queue " + spec.name())
                .withCircuitBreaker()
                .name("redrive-" + spec.name())
                .requestVolumeThreshold(cb.window())
                .failureRatio(cb.failureRatio())
                .delay(cb.delay().toMillis(), ChronoUnit.MILLIS)
                .skipOn(TerminalJobException.class)
                .onStateChange(onCircuit)
                .done()
                .withBulkhead().limit(spec.httpBulkhead()).queueSize(Math.max(1, spec.concurrency())).done()
                .withThreadOffload(false)
                .build();
    }

    @Override
    public Uni<Void> handle(Job job) {
        return Uni.createFrom().completionStage(() -> guard.get(() -> call(job)));
    }

    private CompletionStage<Void> call(Job job) {
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setHost(target.getHost())
                .setPort(target.getPort())
                .setURI(target.getURI())
                .setSsl(target.isSsl());
        byte[] body;
        try {
            body = body(job, options);
            options.putHeader(JOB_ID, job.jobId())
                    .putHeader(STREAM, job.stream())
                    .putHeader(JOB, HeaderValues.of(job, Job.NAME).orElse(job.queue()))
                    .putHeader(ATTEMPT, Integer.toString(job.attempt()))
                    .putHeader(MAX_ATTEMPTS, Integer.toString(job.maxAttempts()))
                    .putHeader(IDEMPOTENCY_KEY, HeaderValues.of(job, Job.IDEMPOTENCY_KEY).orElseGet(job::jobId));
            if (!traced) {
                HeaderValues.of(job, Job.TRACEPARENT).ifPresent(tp -> options.putHeader(TRACEPARENT, tp));
            }
        } catch (JsonProcessingException e) {
            return CompletableFuture.failedFuture(new TerminalJobException("invalid-fields", "fields can't be sent as JSON: " + e.getMessage(), e));
        } catch (TerminalJobException unsendable) {
            return CompletableFuture.failedFuture(unsendable);
        }
        // The call's one time limit: no idle timeout on the request as well, which would be a second
        // timer per call for a limit this one already enforces.
        // Vert.x futures step by step, not Mutiny: each Mutiny step would capture and restore the
        // context (context propagation) on every call.
        Promise<Void> answer = Promise.promise();
        AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
        long budget = spec.httpTimeout().toMillis();
        long timer = vertx.setTimer(budget, t -> {
            TimeoutException late = new TimeoutException("no answer from POST " + spec.httpUrl() + " within " + budget + " ms");
            if (answer.tryFail(late) && sent.get() != null) {
                sent.get().reset(0, late); // gives the connection back instead of waiting for the answer
            }
        });
        send(options, body, answer, sent).onComplete(done -> {
            vertx.cancelTimer(timer);
            if (done.succeeded()) {
                answer.tryComplete();
            } else {
                answer.tryFail(failure(done.cause()));
            }
        });
        return answer.future().toCompletionStage();
    }

    private Future<Void> send(RequestOptions options, byte[] body, Promise<Void> answer,
            AtomicReference<HttpClientRequest> sent) {
        return client.request(options)
                .compose(request -> {
                    if (answer.future().isComplete()) {
                        // The budget ran out while a connection was found: the attempt has failed,
                        // so the job is not sent on its behalf now (its retry sends it again).
                        request.reset();
                        return Future.failedFuture(answer.future().cause());
                    }
                    sent.set(request);
                    // Wrapped, not copied: the body is the entry's own bytes or a fresh JSON array.
                    return request.send(Buffer.buffer(Unpooled.wrappedBuffer(body)));
                })
                .compose(response -> ReplyBody.read(response, "POST " + spec.httpUrl()).map(b -> outcome(response, b)));
    }

    /**
     * A status answer, or the call's time limit, as it is; anything else (refused, reset) a
     * transient http-connect.
     */
    private Throwable failure(Throwable e) {
        if (e instanceof JobFailedException || e instanceof TerminalJobException || e instanceof TimeoutException) {
            return e;
        }
        return new JobFailedException("http-connect", "POST " + spec.httpUrl() + " failed: " + describe(e), null);
    }

    private static byte[] body(Job job, RequestOptions options) throws JsonProcessingException {
        var payload = job.bytes(Job.PAYLOAD);
        if (payload.isPresent()) {
            String type = HeaderValues.of(job, Job.CONTENT_TYPE).orElse(null);
            options.putHeader(CONTENT_TYPE, type != null ? type : APPLICATION_JSON);
            return payload.get();
        }
        options.putHeader(CONTENT_TYPE, APPLICATION_JSON);
        return json(job.fields());
    }

    /** The fields as one JSON object; plain maps, so nothing needs reflection in a native image. */
    private static byte[] json(Map<String, byte[]> fields) throws JsonProcessingException {
        return JSON.writeValueAsBytes(FieldValues.toJson(fields));
    }

    private static Void outcome(HttpClientResponse response, ReplyBody body) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return null;
        }
        String phrase = response.statusMessage();
        if (phrase == null || phrase.isBlank()) {
            // Some servers send no reason phrase; the record should still read like a status line.
            phrase = io.netty.handler.codec.http.HttpResponseStatus.valueOf(status).reasonPhrase();
        }
        String reason = "HTTP " + status + " " + phrase.trim() + body.excerpt();
        String errorType = "http-" + status;
        if (isTransient(status)) {
            throw new JobFailedException(errorType, reason, retryAfter(response.getHeader("Retry-After"),
                    response.getHeader("Date")));
        }
        throw new TerminalJobException(errorType, reason, null);
    }

    /**
     * 408, 425, 429 and 5xx may clear on their own; every other non-2xx answer will not, a status
     * outside HTTP's 100-599 (a broken provider answering 999) included.
     */
    static boolean isTransient(int status) {
        return status == 408 || status == 425 || status == 429 || (status >= 500 && status <= 599);
    }

    /**
     * Retry-After as delta-seconds or an HTTP-date; null when absent or unreadable. Seconds past
     * {@code long} read as the longest wait there is: the queue's {@code max-retry-after} cuts any
     * hint down (worker/Outcomes), so no value can hold a job longer than that. An HTTP-date is
     * read against the response's own Date (RFC 9110: the provider's clock wrote both), not this
     * process's clock, which may be off: the wait is then Redis' time plus it (transfer.lua), as
     * for delta-seconds; only without a readable Date is this process's clock the reference.
     */
    static Duration retryAfter(String header, String date) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.trim();
        if (value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Duration.ofSeconds(Long.parseLong(value));
            } catch (NumberFormatException pastLong) {
                return Duration.ofSeconds(Long.MAX_VALUE);
            }
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(httpDate(date).orElseGet(Instant::now), at);
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException unreadable) {
            return null;
        }
    }

    private static Optional<Instant> httpDate(String value) {
        try {
            return value == null ? Optional.empty()
                    : Optional.of(ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        } catch (DateTimeParseException unreadable) {
            return Optional.empty();
        }
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
