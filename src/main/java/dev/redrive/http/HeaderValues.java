package dev.redrive.http;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import dev.redrive.job.Job;
import dev.redrive.job.TerminalJobException;

/**
 * The one rule for a producer's field sent as a header ({@code job}, {@code idempotency-key},
 * {@code traceparent}, {@code content-type}): UTF-8 text with no control character (tab aside).
 * A value that breaks it can never be sent, however often the job is tried (the HTTP client refuses
 * CR, LF and NUL with an IllegalArgumentException on every attempt), so it is a terminal failure,
 * {@value #ERROR_TYPE}, naming the field: the job is parked at once instead of spending its budget,
 * and nothing of the value reaches the wire (no header is ever split).
 */
final class HeaderValues {

    static final String ERROR_TYPE = "bad-header-value";

    private HeaderValues() {
    }

    /** The field as header text, or empty when the job has no such field. */
    static Optional<String> of(Job job, String field) {
        return job.bytes(field).map(value -> text(job, field, value));
    }

    private static String text(Job job, String field, byte[] value) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException e) {
            throw refused(job, field, "it is not UTF-8");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw refused(job, field, String.format("it holds control character U+%04X at character %d", (int) c, i));
            }
        }
        return text;
    }

    private static TerminalJobException refused(Job job, String field, String why) {
        return new TerminalJobException(ERROR_TYPE, "field " + field + " of job " + job.jobId()
                + " can't be sent as an HTTP header: " + why + "; fix the producer, then replay with a corrected "
                + field, null);
    }
}
