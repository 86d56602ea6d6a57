package dev.redrive.trace;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;

/**
 * W3C Trace Context's {@code traceparent} ({@code 00-<trace id>-<span id>-<flags>}), the form in
 * which a span context travels in a stream entry's {@code traceparent} field, a dead-letter
 * record's {@code last-attempt-trace} and the headers redrive sends downstream.
 */
public final class Traceparent {

    private static final int LENGTH = 55;

    private Traceparent() {
    }

    /** The span context a traceparent names; null when the text is no valid version-00 traceparent. */
    public static SpanContext parse(String text) {
        if (text == null || text.length() != LENGTH || !text.startsWith("00-") || text.charAt(35) != '-'
                || text.charAt(52) != '-') {
            return null;
        }
        String flags = text.substring(53);
        if (!isHex(flags)) {
            return null;
        }
        SpanContext context = SpanContext.createFromRemoteParent(text.substring(3, 35), text.substring(36, 52),
                TraceFlags.fromHex(flags, 0), TraceState.getDefault());
        return context.isValid() ? context : null;
    }

    public static String of(SpanContext context) {
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex();
    }

    /** The trace id part of a traceparent (the whole text when it is none). */
    public static String traceId(String traceparent) {
        SpanContext context = parse(traceparent);
        return context == null ? traceparent : context.getTraceId();
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
