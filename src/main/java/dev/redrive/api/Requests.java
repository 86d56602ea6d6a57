package dev.redrive.api;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.ws.rs.core.UriInfo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import dev.redrive.job.EntryIds;

/** Checks of request input shared by the resources; each failure is a 400 problem and changes nothing. */
public final class Requests {

    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private Requests() {
    }

    /** A redrive's or a proposal's id: a lower-case UUID; anything else is "'raw' is not a {@code what}". */
    public static String uuid(String raw, String what) {
        if (!UUID.matcher(raw).matches()) {
            throw ProblemException.badRequest("'" + raw + "' is not a " + what);
        }
        return raw;
    }

    /** The API path of {@code dlq}'s {@code kind} ("entries", "redrives", "proposals") {@code id}, for a Location. */
    static URI location(String dlq, String kind, String id) {
        return URI.create("/dlq/" + URLEncoder.encode(dlq, StandardCharsets.UTF_8) + "/" + kind + "/" + id);
    }

    public static String entryId(String id) {
        if (!EntryIds.isValid(id)) {
            throw ProblemException.badRequest("'" + id + "' is not a stream entry id (<milliseconds>-<sequence>, "
                    + "each a whole number below 2^64)");
        }
        return id;
    }

    /**
     * A page cursor: the id of an entry. 0-0 and the largest id are never entries (Redis refuses
     * the first, and redrive's streams take ids from the clock), and Redis can't range past them.
     */
    public static String cursor(String after) {
        if (after == null || after.isEmpty()) {
            return null;
        }
        if (EntryIds.isEnd(entryId(after))) {
            throw ProblemException.badRequest("after=" + after + " is not a cursor: pass the `next` of an earlier page");
        }
        return after;
    }

    /** Items per page of a listing or an audit trail when the request names no count. */
    static final int DEFAULT_PAGE = 50;
    static final int MAX_PAGE = 500;

    /** The {@code count} of a page: 1 to {@link #MAX_PAGE}, {@link #DEFAULT_PAGE} when not given. */
    public static int pageSize(String raw) {
        return count(raw, DEFAULT_PAGE, MAX_PAGE);
    }

    public static int count(String raw, int byDefault, int max) {
        if (raw == null || raw.isEmpty()) {
            return byDefault;
        }
        int count;
        try {
            count = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest("count must be a number between 1 and " + max + " (got '" + raw + "')");
        }
        if (count < 1 || count > max) {
            throw ProblemException.badRequest("count must be between 1 and " + max + " (got " + count + ")");
        }
        return count;
    }

    /** Refuses query parameters the endpoint does not know, so a typo never widens a filter. */
    public static void onlyParams(UriInfo uri, Set<String> known) {
        for (String name : uri.getQueryParameters().keySet()) {
            if (!known.contains(name)) {
                throw ProblemException.badRequest("unknown query parameter '" + name + "'; known: " + known);
            }
        }
    }

    static JsonNode json(ObjectMapper mapper, byte[] body, int maxBytes) {
        if (body == null || body.length == 0) {
            return null;
        }
        if (body.length > maxBytes) {
            throw new ProblemException(413, "body-too-large", "Body too large",
                    "the body has " + body.length + " bytes; the limit is " + maxBytes + " (redrive.replay.max-body-bytes)");
        }
        try {
            JsonNode root = mapper.readTree(body);
            return root == null || root.isMissingNode() ? null : root;
        } catch (MismatchedInputException e) {
            // The only mismatch a tree read has: something after the value (FAIL_ON_TRAILING_TOKENS).
            throw new ProblemException(400, "malformed-json", "Body is not valid JSON",
                    "the body must be exactly one JSON value, with nothing after it");
        } catch (JsonProcessingException e) {
            throw new ProblemException(400, "malformed-json", "Body is not valid JSON", e.getOriginalMessage());
        } catch (IOException e) {
            throw ProblemException.badRequest("the body could not be read");
        }
    }
}
