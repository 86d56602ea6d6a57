package dev.redrive.http;

import java.nio.charset.StandardCharsets;

import dev.redrive.job.JobFailedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;

/**
 * What the HTTP handler reads of a provider's reply: the first {@value #KEPT} bytes (the excerpt a
 * failure's reason shows) and a count of the rest, which is discarded as it arrives. A reply over
 * {@value #LIMIT} bytes, announced (Content-Length) or streamed, ends the attempt as transient
 * {@code http-reply-too-long} and is cut off: buffering whatever a provider sends would let one
 * reply of a gigabyte exhaust the heap, and reading it to the end would hold the call for as long
 * as the provider cares to stream.
 */
final class ReplyBody {

    /** Bytes kept for the reason's excerpt. */
    static final int KEPT = 1024;
    /** Largest reply read to its end; README, "HTTP handler". */
    static final long LIMIT = 1024 * 1024;
    static final String TOO_LONG = "http-reply-too-long";

    private final byte[] kept = new byte[KEPT];
    private int keptLength;
    private long length;

    private ReplyBody() {
    }

    /** Reads the reply to its end, or fails once it is known to pass {@link #LIMIT} and resets the call. */
    static Future<ReplyBody> read(HttpClientResponse response, String call) {
        Promise<ReplyBody> read = Promise.promise();
        String announced = response.getHeader("Content-Length");
        if (announced != null && tooLong(announced)) {
            response.request().reset();
            return Future.failedFuture(tooLong(call, response.statusCode(), "Content-Length: " + announced));
        }
        ReplyBody body = new ReplyBody();
        response.exceptionHandler(read::tryFail);
        response.endHandler(end -> read.tryComplete(body));
        response.handler(chunk -> {
            if (read.future().isComplete()) {
                return;
            }
            body.take(chunk);
            if (body.length > LIMIT) {
                read.tryFail(tooLong(call, response.statusCode(), "more than " + LIMIT + " bytes streamed"));
                // Resetting the call stops the stream; the connection is not reused for a reply half read.
                response.request().reset();
            }
        });
        return read.future();
    }

    private static boolean tooLong(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > LIMIT;
        } catch (NumberFormatException unreadable) {
            return false; // the count of what actually arrives decides
        }
    }

    private static JobFailedException tooLong(String call, int status, String what) {
        return new JobFailedException(TOO_LONG, call + " answered HTTP " + status + " with a reply over the "
                + LIMIT + "-byte limit (" + what + "); it was cut off", null);
    }

    private void take(Buffer chunk) {
        int room = KEPT - keptLength;
        if (room > 0) {
            int n = Math.min(room, chunk.length());
            chunk.getBytes(0, n, kept, keptLength);
            keptLength += n;
        }
        length += chunk.length();
    }

    /** {@code ": <first KiB>"} plus {@code …} when there was more; empty for an empty reply. */
    String excerpt() {
        if (length == 0) {
            return "";
        }
        return ": " + new String(kept, 0, keptLength, StandardCharsets.UTF_8) + (length > KEPT ? "…" : "");
    }
}
