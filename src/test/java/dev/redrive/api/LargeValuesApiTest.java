package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.HttpProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Reads of parked jobs with values far larger than a view may carry: cut in Redis with their full
 * size shown, fetched whole on their own in slices, and never more reads at once than allowed.
 * The limits are small here (1000 bytes a value, 4096 an entry, one read at a time) so the test's
 * values need not be large.
 */
@QuarkusTest
@TestProfile(HttpProfile.class)
class LargeValuesApiTest {

    @Inject
    @Own("big")
    TestQueue big;

    String parkedJob(Map<String, ?> fields) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("kind", "terminal");
        all.putAll(fields);
        return big.awaitParked(big.add(all));
    }

    static byte[] bytes(int n, char c) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) c);
        return b;
    }

    @Test
    void aLargeValueIsShownCutWithItsFullSizeAndSmallOnesWhole() {
        byte[] blob = new byte[3000];
        Arrays.fill(blob, (byte) 0xFF);
        // 'x' then 2-byte characters: the cut at 1000 bytes splits one, which the text leaves out.
        String accents = "x" + "é".repeat(2000);
        String id = parkedJob(Map.of("payload", bytes(300_000, 'a'), "blob", blob, "accents", accents));

        as("viewer").get(big.dlqPath() + "/entries/" + enc(id)).then().statusCode(200)
                .body("fields.kind", equalTo("terminal"))
                .body("fields.payload.truncated", equalTo(true))
                .body("fields.payload.size", equalTo(300_000))
                .body("fields.payload.text", equalTo("a".repeat(1000)))
                .body("fields.blob.truncated", equalTo(true))
                .body("fields.blob.size", equalTo(3000))
                .body("fields.blob.base64", equalTo(Base64.getEncoder().encodeToString(Arrays.copyOf(blob, 1000))))
                .body("fields.accents.size", equalTo(accents.getBytes(StandardCharsets.UTF_8).length))
                .body("fields.accents.text", equalTo("x" + "é".repeat(499)))
                .body("truncated", nullValue())
                .body("fieldsLeftOut", nullValue());
    }

    @Test
    void fieldsPastTheEntryLimitAreLeftOutAndCounted() {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            fields.put("part" + i, bytes(1000, 'p'));
        }
        String id = parkedJob(fields);
        Response view = as("viewer").get(big.dlqPath() + "/entries/" + enc(id));
        view.then().statusCode(200);
        Map<String, Object> shown = view.path("fields");
        int leftOut = view.path("fieldsLeftOut");
        assertTrue(leftOut > 0 && leftOut < 10, "4096 bytes hold some of the ten 1000-byte parts, not all: " + leftOut);
        assertEquals(11, shown.size() + leftOut, "every field is either shown or counted: " + shown.keySet());
    }

    @Test
    void theRawValueComesWholeInSlicesAndUnknownOnesAre404() {
        byte[] payload = new byte[50_000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        String id = parkedJob(Map.of("payload", payload, "empty", ""));

        Response raw = as("viewer").get(big.dlqPath() + "/entries/" + enc(id) + "/fields/payload");
        raw.then().statusCode(200).contentType("application/octet-stream");
        assertArrayEquals(payload, raw.asByteArray(), "byte for byte, across thirteen 4096-byte slices");
        assertArrayEquals(new byte[0], as("automation").get(big.dlqPath() + "/entries/" + enc(id) + "/fields/empty")
                .then().statusCode(200).extract().asByteArray());

        problem(as("viewer").get(big.dlqPath() + "/entries/" + enc(id) + "/fields/nothing").then(), 404);
        problem(as("viewer").get(big.dlqPath() + "/entries/" + enc("1-0") + "/fields/payload").then(), 404);
        problem(as("viewer").get(big.dlqPath() + "/entries/not-an-id/fields/payload").then(), 400);
        problem(io.restassured.RestAssured.given().urlEncodingEnabled(false).get(big.dlqPath() + "/entries/" + enc(id) + "/fields/payload")
                .then(), 401);
    }

    @Test
    void aListingCutsRecordValuesAndEndsAPageAtTheByteLimit() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(parkedJob(Map.of("job", "j".repeat(5000), "payload", bytes(100_000, 'q'))));
        }
        List<String> seen = new ArrayList<>();
        String after = "";
        int pages = 0;
        do {
            Response page = as("viewer").get(big.dlqPath() + "/entries?order=oldest&count=500" + (after.isEmpty() ? "" : "&after=" + after));
            page.then().statusCode(200);
            List<Map<String, Object>> items = page.path("items");
            for (Map<String, Object> item : items) {
                if (ids.contains(item.get("id"))) {
                    assertEquals("j".repeat(1000), item.get("job"));
                    assertEquals(List.of("job"), item.get("truncated"));
                    assertEquals(null, item.get("fields"), "a listing never carries the snapshot");
                }
                seen.add((String) item.get("id"));
            }
            after = page.path("next") == null ? "" : page.path("next");
            pages++;
        } while (!after.isEmpty());
        assertTrue(pages > 1, "fewer than 500 entries, yet more than one page: the byte limit ended them");
        assertTrue(seen.containsAll(ids) && seen.size() == seen.stream().distinct().count(),
                "every entry once across the pages");
    }

    @Test
    void theAuditTrailShowsADiscardedPayloadCut() {
        String id = parkedJob(Map.of("payload", bytes(200_000, 'd')));
        as("operator").delete(big.dlqPath() + "/entries/" + enc(id) + "?reason=too-big").then().statusCode(200);
        as("viewer").get(big.dlqPath() + "/audit").then().statusCode(200)
                .body("items.find { it.fields['dlq-id'] == '" + id + "' }.fields['record:f:payload'].truncated", equalTo(true))
                .body("items.find { it.fields['dlq-id'] == '" + id + "' }.fields['record:f:payload'].size", equalTo(200_000));
    }

    @Test
    void anAuditPageEndsAtTheByteLimitAndTheNextPageGoesOn() {
        List<String> discarded = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String id = parkedJob(Map.of("payload", bytes(5_000, 'a')));
            as("operator").delete(big.dlqPath() + "/entries/" + enc(id) + "?reason=paging").then().statusCode(200);
            discarded.add(id);
        }
        Set<String> seen = new HashSet<>();
        String after = "";
        int pages = 0;
        do {
            JsonPath page = as("viewer").get(big.dlqPath() + "/audit?count=500" + (after.isEmpty() ? "" : "&after=" + enc(after)))
                    .then().statusCode(200).extract().jsonPath();
            List<Map<String, Object>> items = page.getList("items");
            // 4096 bytes a page at most, and the entry that crossed it: each record here keeps ~1 KB.
            assertTrue(items.size() >= 1 && items.size() <= 6, "a page of " + items.size() + " records");
            for (Map<String, Object> item : items) {
                @SuppressWarnings("unchecked")
                Map<String, Object> fields = (Map<String, Object>) item.get("fields");
                assertTrue(seen.add(String.valueOf(fields.get("dlq-id")) + "/" + item.get("id")), "each record once");
            }
            after = page.getString("next") == null ? "" : page.getString("next");
            pages++;
        } while (!after.isEmpty());
        assertTrue(pages > 2, "the byte limit ended pages of 500 early: " + pages);
        for (String id : discarded) {
            assertTrue(seen.stream().anyMatch(s -> s.startsWith(id + "/")), "the discard of " + id + " is on a page");
        }
    }
}
