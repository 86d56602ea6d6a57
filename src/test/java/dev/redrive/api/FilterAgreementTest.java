package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.deadletter.RecordField;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

/**
 * A property over generated dead letters and generated filters: a listing, a dry run and a redrive
 * pick exactly the entries a plain Java reading of the filter picks, and a filter that must be
 * refused (an empty id list, a bound outside what a dead-at can hold) is refused by all three.
 * Seeded, so a failure names the seed and replays exactly.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class FilterAgreementTest {

    static final List<String> ORIGINS = ApiProfile.GEN_ORIGINS;
    static final List<String> JOBS = List.of("x", "y", "z");
    static final List<String> FAILURES = List.of("terminal", "exhausted", "missing", "max-receive");
    static final List<String> FINGERPRINTS = List.of("aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc");
    static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
    static final long SEED = 20261201L;
    static final int ROUNDS = 25;

    /** A generated record: what the filter reads of it. deadAt may be unreadable or absent. */
    record Rec(String id, String origin, String job, String failure, String fingerprint, String deadAt) {
    }

    /** A generated filter as the request names it; null means the criterion is left out. */
    record Filter(String origin, String job, String failure, String fingerprint, String deadFrom, String deadTo,
            List<String> ids) {

        /** Whether the API must refuse it: an empty id list, or a bound a dead-at can't hold. */
        boolean refused() {
            return (ids != null && ids.isEmpty()) || outOfRange(deadFrom) || outOfRange(deadTo)
                    || (deadFrom != null && deadTo != null && !Instant.parse(deadFrom).isBefore(Instant.parse(deadTo)));
        }

        private static boolean outOfRange(String bound) {
            return bound != null && (bound.startsWith("+") || bound.startsWith("-"));
        }

        /** The independent reading: every criterion that is set must hold. */
        boolean matches(Rec r) {
            if (origin != null && !origin.equals(r.origin)) {
                return false;
            }
            if (job != null && !job.equals(r.job)) {
                return false;
            }
            if (failure != null && !failure.equals(r.failure)) {
                return false;
            }
            if (fingerprint != null && !fingerprint.equals(r.fingerprint)) {
                return false;
            }
            if (ids != null && !ids.contains(r.id)) {
                return false;
            }
            if (deadFrom == null && deadTo == null) {
                return true;
            }
            Instant dead;
            try {
                dead = r.deadAt == null ? null : Instant.parse(r.deadAt);
            } catch (DateTimeParseException e) {
                dead = null;
            }
            return dead != null && (deadFrom == null || !dead.isBefore(Instant.parse(deadFrom)))
                    && (deadTo == null || dead.isBefore(Instant.parse(deadTo)));
        }

        String query() {
            StringBuilder q = new StringBuilder();
            add(q, "origin", origin);
            add(q, "job", job);
            add(q, "failure", failure);
            add(q, "fingerprint", fingerprint);
            add(q, "deadFrom", deadFrom);
            add(q, "deadTo", deadTo);
            add(q, "ids", ids == null ? null : String.join(",", ids));
            return q.toString();
        }

        private static void add(StringBuilder q, String name, String value) {
            if (value != null) {
                q.append('&').append(name).append('=').append(enc(value));
            }
        }

        String json() throws Exception {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("origin", origin);
            f.put("job", job);
            f.put("failure", failure);
            f.put("fingerprint", fingerprint);
            f.put("deadFrom", deadFrom);
            f.put("deadTo", deadTo);
            f.put("ids", ids);
            f.values().removeIf(v -> v == null);
            return new ObjectMapper().writeValueAsString(f);
        }
    }

    @Inject
    @Own("gen")
    TestQueue gen;

    @Test
    void listingsDryRunsAndRedrivesPickWhatAnIndependentReadingOfTheFilterPicks() throws Exception {
        Random random = new Random(SEED);
        int refusedRounds = 0;
        for (int round = 0; round < ROUNDS; round++) {
            List<Rec> records = seed(random, 10 + random.nextInt(40));
            Filter filter = filter(random, records);
            String where = "seed " + SEED + ", round " + round + ", filter " + filter.json();
            if (filter.refused()) {
                refusedRounds++;
                as("viewer").get(gen.dlqPath() + "/entries?order=oldest" + filter.query()).then().statusCode(400);
                as("operator").contentType("application/json").body("{\"dryRun\": true, \"filter\": " + filter.json() + "}")
                        .post(gen.dlqPath() + "/redrives").then().statusCode(400);
                assertEquals(records.size(), gen.redis().stream(String.class).xlen(gen.dlq()), where);
                continue;
            }
            List<String> expected = records.stream().filter(filter::matches).map(Rec::id).toList();
            assertEquals(expected, listed(filter), "listing, " + where);
            assertEquals(expected.size(), finished(filter, true).getLong("matched"), "dry run, " + where);
            JsonPath moved = finished(filter, false);
            assertEquals(expected.size(), moved.getLong("moved"), "redrive, " + where);
            assertEquals(new TreeSet<>(expected), replayedFrom(), "redrive, " + where);
            Set<String> left = records.stream().map(Rec::id).filter(id -> !expected.contains(id))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(left, new TreeSet<>(listed(new Filter(null, null, null, null, null, null, null))), where);
        }
        assertEquals(true, refusedRounds > 0 && refusedRounds < ROUNDS, "the generator makes both kinds of filter");
    }

    /** Empties the dead-letter stream and the origins, then parks n generated records. */
    List<Rec> seed(Random random, int n) {
        List<String> keys = new ArrayList<>(List.of(gen.dlq(), gen.dlq() + ":stats"));
        keys.addAll(ORIGINS);
        gen.redis().key().del(keys.toArray(String[]::new));
        List<Rec> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String origin = pick(random, ORIGINS);
            String job = pick(random, JOBS);
            String failure = pick(random, FAILURES);
            String fingerprint = pick(random, FINGERPRINTS);
            String deadAt = switch (random.nextInt(12)) {
                case 0 -> "not a time";
                case 1 -> null;
                default -> instant(random).toString();
            };
            DeadLetterSeed record = DeadLetterSeed.from(origin, i + 1 + "-0").with(RecordField.JOB, job)
                    .with(RecordField.FAILURE, failure).with(RecordField.FINGERPRINT, fingerprint)
                    .snapshot("payload", "generated " + i);
            String id = (deadAt == null ? record.without(RecordField.DEAD_AT) : record.with(RecordField.DEAD_AT, deadAt))
                    .park(gen.redis(), gen.dlq());
            records.add(new Rec(id, origin, job, failure, fingerprint, deadAt));
        }
        return records;
    }

    /** A time within a minute of START, at the precision Java writes (seconds, ms, µs or ns). */
    static Instant instant(Random random) {
        Instant at = START.plusNanos((long) (random.nextDouble() * 60_000_000_000L));
        return switch (random.nextInt(4)) {
            case 0 -> at.truncatedTo(ChronoUnit.SECONDS);
            case 1 -> at.truncatedTo(ChronoUnit.MILLIS);
            case 2 -> at.truncatedTo(ChronoUnit.MICROS);
            default -> at;
        };
    }

    static Filter filter(Random random, List<Rec> records) {
        String origin = random.nextInt(3) == 0 ? pick(random, List.of("{gen}a", "{gen}b", "{gen}c", "{gen}d")) : null;
        String job = random.nextInt(3) == 0 ? pick(random, JOBS) : null;
        String failure = random.nextInt(4) == 0 ? pick(random, FAILURES) : null;
        String fingerprint = random.nextInt(4) == 0 ? pick(random, FINGERPRINTS) : null;
        String deadFrom = random.nextInt(3) == 0 ? bound(random) : null;
        String deadTo = random.nextInt(3) == 0 ? bound(random) : null;
        if (deadFrom != null && deadTo != null && !deadFrom.startsWith("+") && !deadTo.startsWith("+")
                && random.nextInt(4) != 0 && Instant.parse(deadTo).isBefore(Instant.parse(deadFrom))) {
            String t = deadFrom;
            deadFrom = deadTo;
            deadTo = t;
        }
        List<String> ids = null;
        if (random.nextInt(4) == 0) {
            ids = new ArrayList<>();
            for (Rec r : records) {
                if (random.nextInt(5) == 0) {
                    ids.add(r.id);
                }
            }
            if (random.nextBoolean()) {
                ids.add("1-1"); // an id that is not parked matches nothing more
            }
        }
        return new Filter(origin, job, failure, fingerprint, deadFrom, deadTo, ids);
    }

    /** A bound inside the records' minute mostly, an exact dead-at now and then, or one a dead-at can't hold. */
    static String bound(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> "+10000-01-01T00:00:00Z";
            case 1 -> "-0001-01-01T00:00:00Z";
            default -> instant(random).toString();
        };
    }

    static <T> T pick(Random random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }

    List<String> listed(Filter filter) {
        List<String> ids = new ArrayList<>();
        String after = null;
        do {
            ExtractableResponse<Response> page = as("viewer").get(gen.dlqPath() + "/entries?order=oldest&count=7" + filter.query()
                    + (after == null ? "" : "&after=" + after)).then().statusCode(200).extract();
            ids.addAll(page.jsonPath().getList("items.id", String.class));
            after = page.path("next");
        } while (after != null);
        return ids;
    }

    JsonPath finished(Filter filter, boolean dryRun) throws Exception {
        String task = as("operator").contentType("application/json")
                .body("{\"dryRun\": " + dryRun + ", \"maxPerSecond\": 0, \"filter\": " + filter.json() + "}")
                .post(gen.dlqPath() + "/redrives").then().statusCode(202).extract().path("id");
        return Await.value("redrive " + task + " to complete", () -> {
            JsonPath s = as("viewer").get(gen.dlqPath() + "/redrives/" + task).then().statusCode(200).extract().jsonPath();
            return "completed".equals(s.getString("state")) ? s : null;
        });
    }

    /** The dead letters the origins got back, by their replay-of marks. */
    Set<String> replayedFrom() {
        Set<String> ids = new TreeSet<>();
        for (String origin : ORIGINS) {
            gen.redis().stream(String.class, String.class, byte[].class).xrange(origin,
                    io.quarkus.redis.datasource.stream.StreamRange.of("-", "+")).forEach(m -> ids.add(
                            new String(m.payload().get("replay-of"), StandardCharsets.UTF_8).substring(gen.dlq().length() + 1)));
        }
        return ids;
    }
}
