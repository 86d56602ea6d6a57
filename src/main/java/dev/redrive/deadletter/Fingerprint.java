package dev.redrive.deadletter;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Groups dead letters by cause: the error type plus the reason with quoted text, ids and numbers
 * normalised away, so a thousand "HTTP 422: field 'x' missing in doc 123" count as one.
 *
 * @param id   12 hex digits, stable for the same normalised text
 * @param text the normalised text an operator reads
 */
public record Fingerprint(String id, String text) {

    private static final int MAX_TEXT = 200;
    private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"|`[^`]*`");
    private static final Pattern UUID = Pattern.compile(
            "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b");
    private static final Pattern HEX = Pattern.compile("\\b(?=[0-9a-fA-F]*\\d)[0-9a-fA-F]{8,}\\b");
    private static final Pattern NUMBER = Pattern.compile("\\d+([.:-]\\d+)*");
    private static final Pattern SPACE = Pattern.compile("\\s+");

    /** Recent causes: in an outage the same text comes thousands of times; five regexes and a hash each is waste. */
    private static final int CACHE_SIZE = 1024;
    private static final java.util.Map<String, Fingerprint> RECENT = new java.util.concurrent.ConcurrentHashMap<>();

    public static Fingerprint of(String errorType, String reason) {
        String key = errorType + '\u0000' + reason;
        Fingerprint known = RECENT.get(key);
        if (known != null) {
            return known;
        }
        if (RECENT.size() >= CACHE_SIZE) {
            RECENT.clear();
        }
        Fingerprint computed = compute(errorType, reason);
        RECENT.put(key, computed);
        return computed;
    }

    private static Fingerprint compute(String errorType, String reason) {
        String normalised = reason == null ? "" : reason;
        normalised = QUOTED.matcher(normalised).replaceAll("?");
        normalised = UUID.matcher(normalised).replaceAll("#");
        normalised = HEX.matcher(normalised).replaceAll("#");
        normalised = NUMBER.matcher(normalised).replaceAll("#");
        normalised = SPACE.matcher(normalised).replaceAll(" ").trim();
        String text = errorType + ": " + normalised;
        if (text.length() > MAX_TEXT) {
            text = text.substring(0, MAX_TEXT);
        }
        return new Fingerprint(sha1(text).substring(0, 12), text);
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
