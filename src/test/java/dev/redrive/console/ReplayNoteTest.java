package dev.redrive.console;

import static dev.redrive.testing.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * A replay's note follows one rule (deadletter/Replays.note) whether the API or the console sends
 * it: the audit trail keeps it without the white space around it, and a blank note is no note.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ReplayNoteTest {

    @Inject
    @Own("notes")
    TestQueue notes;

    String park(String order) {
        return notes.awaitParked(notes.add(Map.of("cause", "timeout", "order", order)));
    }

    /** The note of the audit record of {@code dlqId}'s replay, as the API shows it. */
    String auditedNote(String dlqId) {
        return as("viewer").get(notes.dlqPath() + "/audit?count=500").then().statusCode(200).extract()
                .path("items.find { it.fields.action == 'replay' && it.fields['dlq-id'] == '" + dlqId + "' }.fields.note");
    }

    void replayByApi(String dlqId, String note) {
        as("operator").contentType("application/json").body(Map.of("note", note))
                .post(notes.dlqPath() + "/entries/" + dlqId + "/replay").then().statusCode(201);
    }

    void replayInConsole(ConsoleClient operator, String dlqId, String note) {
        operator.post("/console/dlq/" + notes.dlq() + "/entries/" + dlqId + "/replay",
                Map.of("note", note, "confirm", "yes", "key", UUID.randomUUID().toString())).then().statusCode(303);
    }

    @Test
    void theApiAndTheConsoleKeepTheSameNote() {
        String note = " \tfixed the ledger timeout\n ";
        String byApi = park("1");
        String inConsole = park("2");
        replayByApi(byApi, note);
        replayInConsole(ConsoleClient.login("operator"), inConsole, note);
        assertEquals(List.of("fixed the ledger timeout", "fixed the ledger timeout"),
                List.of(auditedNote(byApi), auditedNote(inConsole)));
    }

    @Test
    void aBlankNoteIsNoNoteEitherWay() {
        String byApi = park("3");
        String inConsole = park("4");
        replayByApi(byApi, " \n\t ");
        replayInConsole(ConsoleClient.login("operator"), inConsole, " \n\t ");
        assertEquals(List.of("", ""), List.of(auditedNote(byApi), auditedNote(inConsole)));
    }

    /** The console's preview shows the note as the replay will keep it. */
    @Test
    void theConsolesPreviewShowsTheKeptNote() {
        String id = park("5");
        String page = ConsoleClient.login("operator").post("/console/dlq/" + notes.dlq() + "/entries/" + id + "/replay",
                Map.of("note", "  checked with the ledger team \n")).then().statusCode(200).extract().asString();
        assertEquals(true, page.contains("<p>Note: checked with the ledger team</p>"), page);
    }
}
