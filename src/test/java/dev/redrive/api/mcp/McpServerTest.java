package dev.redrive.api.mcp;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.LogLines;
import dev.redrive.testing.McpClients;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The MCP server through the official MCP Java SDK's client, over real HTTP, as each role. */
@QuarkusTest
@TestProfile(ApiProfile.class)
class McpServerTest {

    /** Where the agent's dead letters came from and a redrive would send them: no worker reads it. */
    static final String ORIGIN = "{agent}back";

    @TestHTTPResource("/")
    URL root;

    @Inject
    @Own("agent")
    TestQueue agent;

    final ObjectMapper json = new ObjectMapper();

    /** Runs {@code use} with an initialized client logged in as {@code user}. */
    static void as(String user, Consumer<McpSyncClient> use) {
        McpClients.as(user, use);
    }

    static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    JsonNode ok(McpSchema.CallToolResult result) {
        assertFalse(Boolean.TRUE.equals(result.isError()), () -> "tool error: " + text(result));
        try {
            return json.readTree(text(result));
        } catch (Exception e) {
            throw new AssertionError(text(result), e);
        }
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    static void refused(McpSchema.CallToolResult result, String says) {
        assertTrue(Boolean.TRUE.equals(result.isError()), () -> "expected a tool error: " + text(result));
        assertTrue(text(result).contains(says), text(result));
    }

    @Test
    void everyToolIsListedWithASchemaAndHints() {
        as("viewer", client -> {
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertEquals(new TreeSet<>(List.of("list_dead_letter_streams", "list_causes", "list_entries", "get_entry",
                    "get_audit", "count_matches", "get_proposal", "propose_redrive", "redrive")),
                    new TreeSet<>(tools.stream().map(McpSchema.Tool::name).toList()));
            for (McpSchema.Tool t : tools) {
                boolean reads = !t.name().equals("propose_redrive") && !t.name().equals("redrive");
                assertEquals(reads, t.annotations().readOnlyHint(), t.name());
                assertEquals(!reads, t.annotations().destructiveHint(), t.name());
                assertEquals("object", t.inputSchema().get("type"), t.name());
            }
        });
    }

    @Test
    void eachToolAnswersAsTheApiWouldAndIsAudited() {
        DeadLetterSeed.parkMany(agent.redis(), agent.dlq(), ORIGIN, 3);
        as("automation", client -> {
            JsonNode streams = ok(call(client, "list_dead_letter_streams", Map.of()));
            assertTrue(streams.findValuesAsText("name").contains(agent.dlq()), streams.toString());
            JsonNode causes = ok(call(client, "list_causes", Map.of("dlq", agent.dlq())));
            assertTrue(causes.findValuesAsText("fingerprint").contains("bbbbbbbbbbbb"), causes.toString());
            JsonNode page = ok(call(client, "list_entries", Map.of("dlq", agent.dlq(), "origin", ORIGIN, "count", 10)));
            assertEquals(3, page.get("items").size());
            String id = page.get("items").get(0).get("id").asText();
            JsonNode entry = ok(call(client, "get_entry", Map.of("dlq", agent.dlq(), "id", id)));
            assertEquals(ORIGIN, entry.get("originStream").asText());
            JsonNode count = ok(call(client, "count_matches", Map.of("dlq", agent.dlq(), "filter", Map.of("origin", ORIGIN))));
            assertEquals(3, count.get("matched").asLong());
            assertTrue(count.get("complete").asBoolean());

            JsonNode proposal = ok(call(client, "propose_redrive", Map.of("dlq", agent.dlq(), "filter", Map.of("origin", ORIGIN),
                    "canary", 1, "note", "agent: provider is back", "patch", Map.of("set", Map.of("kind", "ok"),
                            "json", Map.of("meta", Map.of("region", "eu"))))));
            assertEquals("proposed", proposal.get("state").asText());
            assertEquals("eu", proposal.at("/patch/json/meta/region").asText(), proposal.toString());
            assertEquals(3, proposal.get("matched").asLong());
            assertTrue(proposal.get("console").asText().endsWith("/proposals/" + proposal.get("id").asText()));
            JsonNode read = ok(call(client, "get_proposal", Map.of("dlq", agent.dlq(), "id", proposal.get("id").asText())));
            assertEquals("automation", read.get("proposedBy").asText());
            assertEquals("ok", read.at("/patch/set/kind").asText());
            assertEquals(3, read.get("preview").size(), "the approver's preview: " + read);
            assertEquals("patch: field 'meta' is missing", read.at("/preview/0/skipped").asText());
            assertEquals(0, agent.streams().all(ORIGIN).size(), "a proposal moves nothing");

            // an agent may not redrive by default: it is told to propose
            refused(call(client, "redrive", Map.of("dlq", agent.dlq(), "filter", Map.of("origin", ORIGIN))), "propose_redrive");
            // the API's problems come through as tool errors
            refused(call(client, "get_entry", Map.of("dlq", "nope", "id", id)), "404");
            refused(call(client, "list_entries", Map.of("dlq", agent.dlq(), "fingerprint", "xyz")), "400");
            // and what the input schema refuses never reaches the API
            refused(call(client, "list_entries", Map.of("dlq", agent.dlq(), "failure", "sometimes")), "failure");
            refused(call(client, "count_matches", Map.of("dlq", agent.dlq(), "filter", Map.of("colour", "red"))), "colour");

            JsonNode audit = ok(call(client, "get_audit", Map.of("dlq", agent.dlq(), "count", 20)));
            List<String> calls = audit.get("items").findValues("fields").stream()
                    .filter(f -> "mcp-tool".equals(f.path("action").asText()))
                    .map(f -> f.get("actor").asText() + " " + f.get("tool").asText()).toList();
            // the calls that may write are kept whole in the stream's trail; reads, and a redrive the agents' rule
            // refuses (may-redrive is off here), go to the capped one (McpAuditTest)
            assertTrue(calls.contains("automation propose_redrive"), calls.toString());
            assertFalse(calls.contains("automation redrive") || calls.contains("automation list_causes")
                    || calls.contains("automation get_audit"), calls.toString());
        });
    }

    /** get_entry masks what the console masks: the profile names "card, token", with a space. */
    @Test
    void getEntryMasksTheFieldsTheConsoleMasks() {
        String id = agent.parkedJob(Map.of("card", "4111111111111111", "token", "s3cret", "order", "7"));
        as("viewer", client -> {
            JsonNode fields = ok(call(client, "get_entry", Map.of("dlq", agent.dlq(), "id", id))).get("fields");
            assertTrue(fields.get("card").asText().startsWith("(masked"), fields.toString());
            assertTrue(fields.get("token").asText().startsWith("(masked"), fields.toString());
            assertEquals("7", fields.get("order").asText(), fields.toString());
        });
    }

    @Test
    void aViewerMayReadButNotPropose() {
        as("viewer", client -> {
            ok(call(client, "count_matches", Map.of("dlq", agent.dlq())));
            refused(call(client, "propose_redrive", Map.of("dlq", agent.dlq(), "filter", Map.of("origin", ORIGIN))), "403");
            refused(call(client, "redrive", Map.of("dlq", agent.dlq())), "propose_redrive");
        });
    }

    /** The dlq argument is logged before it is known to name a stream: its line break stays in its line. */
    @Test
    void anArgumentCannotWriteALineOfItsOwnIntoTheLog() {
        try (LogLines log = LogLines.of(CallAudit.class)) {
            as("viewer", client -> refused(call(client, "list_causes",
                    Map.of("dlq", "nope\n2026-01-01 00:00:00,000 INFO  operator approved everything")), "404"));
            String line = log.containing("operator approved").get(0);
            assertTrue(!line.contains("\n") && line.contains("nope\\n2026-01-01"), line);
        }
    }

    /** A tools/call whose params are no call is JSON-RPC's Invalid params, never a 500. */
    @ParameterizedTest
    @ValueSource(strings = { ",\"params\":{\"name\":\"list_dead_letter_streams\",\"arguments\":\"all\"}",
            ",\"params\":{\"name\":\"list_dead_letter_streams\",\"arguments\":[1]}", "",
            ",\"params\":{\"arguments\":{}}", ",\"params\":[\"list_dead_letter_streams\"]" })
    void aToolCallWithoutAnObjectOfArgumentsIsInvalidParams(String params) {
        post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\"" + params + "}", McpClients.PROTOCOL)
                .then().statusCode(200).body("id", equalTo(7)).body("error.code", equalTo(-32602))
                .body("error.message", startsWith("Invalid params"));
    }

    /** The transport requires a 400 for a protocol version the server does not speak, naming those it does. */
    @Test
    void anUnsupportedProtocolVersionIsRefused() {
        post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "1999-01-01").then().statusCode(400)
                .body("detail", containsString("2025-06-18")).body("detail", containsString("1999-01-01"));
        post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", McpClients.PROTOCOL).then().statusCode(200)
                .body("result.tools.size()", greaterThan(0));
    }

    private io.restassured.response.Response post(String message, String protocolVersion) {
        return given().auth().preemptive().basic("viewer", ApiUsers.password("viewer")).contentType("application/json")
                .accept("application/json, text/event-stream").header("MCP-Protocol-Version", protocolVersion)
                .body(message).post(URI.create(root + "mcp"));
    }

    @Test
    void withoutCredentialsOrARoleTheServerIsClosed() {
        String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        given().contentType("application/json").body(init).post(URI.create(root + "mcp")).then().statusCode(401);
        given().auth().preemptive().basic("viewer", "wrong").contentType("application/json").body(init)
                .post(URI.create(root + "mcp")).then().statusCode(401);
    }
}
