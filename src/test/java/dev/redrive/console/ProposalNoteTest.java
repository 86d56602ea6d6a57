package dev.redrive.console;

import static dev.redrive.testing.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * A decision's note on a redrive proposal follows one rule (redrive/Proposals.note) whether the API
 * or the console sends it: the audit trail keeps it without the white space around it, and a blank
 * note is no note.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ProposalNoteTest {

    @Inject
    @Own("pnote")
    TestQueue pnote;

    /** A proposal by automation of a redrive that matches nothing, so its redrive ends at once. */
    String propose() {
        return as("automation").contentType("application/json").body("{\"filter\": {\"origin\": \"{pnote}none\"}}")
                .post(pnote.dlqPath() + "/proposals").then().statusCode(201).extract().path("id");
    }

    /** The note of the audit record of {@code action} on proposal {@code id}, as the trail keeps it. */
    String auditedNote(String action, String id) {
        return pnote.streams().all(RedisKeys.audit(pnote.dlq())).stream()
                .filter(m -> id.equals(text(m.payload().get("proposal"))) && action.equals(text(m.payload().get("action"))))
                .map(m -> text(m.payload().get("note"))).findFirst().orElseThrow();
    }

    static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    void awaitCompleted(String task) {
        Await.until("the approved redrive to complete",
                () -> "completed".equals(as("viewer").get(pnote.dlqPath() + "/redrives/" + task).jsonPath().getString("state")));
    }

    @Test
    void theApiAndTheConsoleKeepTheSameNote() {
        String note = " \tchecked with the ledger team\n ";
        String byApi = propose();
        String inConsole = propose();
        String task = as("operator").contentType("application/json").body(Map.of("note", note))
                .post(pnote.dlqPath() + "/proposals/" + byApi + "/approve").then().statusCode(202).extract().path("task");
        awaitCompleted(task); // one redrive of a stream at a time
        ConsoleClient.login("operator").post("/console/dlq/" + pnote.dlq() + "/proposals/" + inConsole + "/approve",
                Map.of("note", note)).then().statusCode(303);
        assertEquals(List.of("checked with the ledger team", "checked with the ledger team"),
                List.of(auditedNote("proposal-approve", byApi), auditedNote("proposal-approve", inConsole)));
    }

    @Test
    void aBlankNoteIsNoNoteEitherWay() {
        String byApi = propose();
        String inConsole = propose();
        as("operator").contentType("application/json").body(Map.of("note", " \n\t "))
                .post(pnote.dlqPath() + "/proposals/" + byApi + "/reject").then().statusCode(200);
        ConsoleClient.login("operator").post("/console/dlq/" + pnote.dlq() + "/proposals/" + inConsole + "/reject",
                Map.of("note", " \n\t ")).then().statusCode(303);
        assertEquals(List.of("", ""), List.of(auditedNote("proposal-reject", byApi), auditedNote("proposal-reject", inConsole)));
    }

    /** The length limit is the service's: the same 400 for a note too long, by API and in the console. */
    @Test
    void aNoteTooLongIsTheSame400EitherWay() {
        String id = propose();
        String tooLong = "x".repeat(2001);
        String byApi = as("operator").contentType("application/json").body(Map.of("note", tooLong))
                .post(pnote.dlqPath() + "/proposals/" + id + "/reject").then().statusCode(400).extract().path("detail");
        String inConsole = ConsoleClient.login("operator").post("/console/dlq/" + pnote.dlq() + "/proposals/" + id + "/reject",
                Map.of("note", tooLong)).then().statusCode(400).extract().path("detail");
        assertEquals(List.of("note is limited to 2000 characters", "note is limited to 2000 characters"),
                List.of(byApi, inConsole));
    }
}
