package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static dev.redrive.testing.Streams.text;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.McpClients;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Masked fields (this boot masks "card, token") stay masked in every view of a snapshot but the
 * console's (ConsoleTest): REST entry views and downloads for every role, the audit trail's
 * discarded snapshots for every role, and MCP's get_entry and get_audit; only an operator sees them
 * in clear, with reveal=true, and each such look is audited.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class MaskedFieldsTest {

    @Inject
    @Own("mask")
    TestQueue mask;

    @Test
    void restReadsMaskForEveryRoleAndOnlyAnOperatorRevealsAudited() {
        String id = mask.parkedJob(Map.of("card", "4111-11", "token", "s3cret", "order", "7"));
        String entry = mask.dlqPath() + "/entries/" + enc(id);
        for (String user : List.of("viewer", "automation", "operator")) {
            as(user).get(entry).then().statusCode(200).body("fields.card", startsWith("(masked"))
                    .body("fields.token", startsWith("(masked")).body("fields.order", equalTo("7"));
            problem(as(user).get(entry + "/fields/card").then(), 403);
            if (!user.equals("operator")) {
                problem(as(user).get(entry + "?reveal=true").then(), 403);
                problem(as(user).get(entry + "/fields/token?reveal=true").then(), 403);
            }
        }
        problem(as("operator").get(entry + "?reveal=yes").then(), 400);
        assertEquals(List.of(), reveals(), "no look in clear yet, so no reveal audited");

        as("operator").get(entry + "?reveal=true").then().statusCode(200).body("fields.card", equalTo("4111-11"))
                .body("fields.token", equalTo("s3cret"));
        assertEquals("4111-11", as("operator").get(entry + "/fields/card?reveal=true").then().statusCode(200)
                .extract().asString());
        assertEquals("7", as("viewer").get(entry + "/fields/order").then().statusCode(200).extract().asString());
        assertEquals(List.of("operator " + id + " card,token", "operator " + id + " card"), reveals());
    }

    @Test
    void aDiscardedSnapshotStaysMaskedInTheAuditTrailForTheApiAndAgents() {
        String id = mask.parkedJob(Map.of("card", "4111-22", "order", "8"));
        as("operator").delete(mask.dlqPath() + "/entries/" + enc(id) + "?reason=duplicate").then().statusCode(200);
        String discard = "items.find { it.fields.action == 'discard' && it.fields['dlq-id'] == '" + id + "' }.fields";
        for (String user : List.of("viewer", "operator")) {
            as(user).get(mask.dlqPath() + "/audit?count=100").then().statusCode(200)
                    .body(discard + "['record:f:card']", startsWith("(masked")).body(discard + "['record:f:order']", equalTo("8"));
        }
        McpClients.as("viewer", client -> {
            String audit = ((McpSchema.TextContent) client.callTool(new McpSchema.CallToolRequest("get_audit",
                    Map.of("dlq", mask.dlq(), "count", 100))).content().get(0)).text();
            assertFalse(audit.contains("4111-22"), audit);
            assertTrue(audit.contains("\"record:f:order\":\"8\""), audit);
        });
    }

    @Test
    void theOpenApiDocumentSaysWhoMayReveal() {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        given().port(port).get("/q/openapi?format=json").then().statusCode(200)
                .body("paths['/dlq/{dlq}/entries/{id}'].get.parameters.name", hasItem("reveal"))
                .body("paths['/dlq/{dlq}/entries/{id}'].get.responses['403'].description", containsString("reveal=true"))
                .body("paths['/dlq/{dlq}/entries/{id}/fields/{name}'].get.responses['403'].description",
                        containsString("masked-field"));
    }

    /** The reveal records of this stream's audit trail, oldest first, as "actor dlq-id fields". */
    private List<String> reveals() {
        return mask.streams().all(mask.dlq() + ":audit").stream()
                .filter(m -> "reveal".equals(text(m.payload().get("action"))))
                .map(m -> text(m.payload().get("actor")) + " " + text(m.payload().get("dlq-id")) + " "
                        + text(m.payload().get("fields")))
                .toList();
    }
}
