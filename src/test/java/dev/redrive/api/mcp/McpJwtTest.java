package dev.redrive.api.mcp;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.api.ConsoleSessions;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.JwtIssuer;
import dev.redrive.testing.McpClients;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * MCP clients that authenticate with a bearer JWT, as an agent in production would: the roles come
 * from the token's groups claim and each tool checks them as it does for Basic; a forged, expired
 * or malformed token is a 401 before any tool runs.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class McpJwtTest {

    /** Where its dead letters came from: no worker reads it. */
    static final String ORIGIN = "{mcpjwt}parked";

    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @TestHTTPResource("/")
    URL root;

    @Inject
    @Own("mcpjwt")
    TestQueue mcpjwt;

    final ObjectMapper json = new ObjectMapper();

    /** Runs {@code use} with an initialized MCP Java SDK client that sends {@code token} as its bearer. */
    void with(String token, Consumer<McpSyncClient> use) {
        McpClients.bearer(token, use);
    }

    JsonNode ok(McpSchema.CallToolResult result) throws Exception {
        assertFalse(Boolean.TRUE.equals(result.isError()), () -> "tool error: " + text(result));
        return json.readTree(text(result));
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    static void refused(McpSchema.CallToolResult result, String says) {
        assertTrue(Boolean.TRUE.equals(result.isError()), () -> "expected a tool error: " + text(result));
        assertTrue(text(result).contains(says), text(result));
    }

    static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    @Test
    void aViewerTokenReadsButIsRefusedPropose() {
        DeadLetterSeed.parkMany(mcpjwt.redis(), mcpjwt.dlq(), ORIGIN, 2);
        with(JwtIssuer.token("dashboard", "dlq-viewer"), client -> {
            try {
                assertTrue(ok(call(client, "list_dead_letter_streams", Map.of())).findValuesAsText("name").contains(mcpjwt.dlq()));
                assertTrue(ok(call(client, "count_matches", Map.of("dlq", mcpjwt.dlq(), "filter", Map.of("origin", ORIGIN))))
                        .get("matched").asLong() >= 2);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            refused(call(client, "propose_redrive", Map.of("dlq", mcpjwt.dlq(), "filter", Map.of("origin", ORIGIN))), "403");
            refused(call(client, "redrive", Map.of("dlq", mcpjwt.dlq(), "filter", Map.of("origin", ORIGIN))), "propose_redrive");
        });
    }

    @Test
    void anAutomationTokenProposesUnderItsOwnNameButMayNotRedrive() {
        DeadLetterSeed.parkMany(mcpjwt.redis(), mcpjwt.dlq(), ORIGIN, 2);
        with(JwtIssuer.token("agent-ci", "dlq-automation"), client -> {
            try {
                JsonNode proposal = ok(call(client, "propose_redrive", Map.of("dlq", mcpjwt.dlq(),
                        "filter", Map.of("origin", ORIGIN), "note", "token agent")));
                assertEquals("proposed", proposal.get("state").asText());
                assertEquals("agent-ci", proposal.get("proposedBy").asText(), "the token's upn is the proposer");
                refused(call(client, "redrive", Map.of("dlq", mcpjwt.dlq(), "filter", Map.of("origin", ORIGIN))), "propose_redrive");
                List<String> calls = ok(call(client, "get_audit", Map.of("dlq", mcpjwt.dlq(), "count", 20))).get("items")
                        .findValues("fields").stream().filter(f -> "mcp-tool".equals(f.path("action").asText()))
                        .map(f -> f.get("actor").asText() + " " + f.get("tool").asText()).toList();
                // the proposal may write, kept whole in the stream's trail; the refused redrive goes to the capped calls
                assertTrue(calls.contains("agent-ci propose_redrive") && !calls.contains("agent-ci redrive"), calls.toString());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(0, mcpjwt.streams().all(ORIGIN).size(), "a proposal moves nothing");
    }

    @Test
    void aForgedExpiredOrMalformedTokenIsA401WithAChallenge() {
        for (String token : List.of(JwtIssuer.forgedToken("mallory", "dlq-operator"),
                JwtIssuer.expiredToken("late", "dlq-operator"), "not-a-jwt")) {
            given().auth().oauth2(token).contentType("application/json").accept("application/json, text/event-stream")
                    .body(INITIALIZE).redirects().follow(false).post(URI.create(root + "mcp")).then().statusCode(401);
        }
        given().contentType("application/json").accept("application/json, text/event-stream").body(INITIALIZE)
                .redirects().follow(false).post(URI.create(root + "mcp")).then().statusCode(401)
                .header("WWW-Authenticate", containsString("Basic"));
    }

    /** The name redrive proposes under is no agent's either (api/ReservedNames): 401 before any tool runs. */
    @Test
    void aTokenNamedRedriveIsA401() {
        given().auth().oauth2(JwtIssuer.token("Redrive", "dlq-automation")).contentType("application/json")
                .accept("application/json, text/event-stream").body(INITIALIZE).redirects().follow(false)
                .post(URI.create(root + "mcp")).then().statusCode(401);
    }

    /**
     * /mcp takes the API's ways in (Basic, bearer) and no other: a console session, which a browser
     * sends on its own, does not authenticate a tool call.
     */
    @Test
    void aConsoleSessionIsNoWayIn() {
        String csrf = given().get("/console/login").cookie("redrive-csrf");
        Map<String, String> session = given().redirects().follow(false).cookie("redrive-csrf", csrf)
                .queryParam("csrf-token", csrf).contentType("application/x-www-form-urlencoded")
                .formParam("j_username", "operator").formParam("j_password", ApiUsers.password("operator"))
                .post("/console/j_security_check").cookies();
        assertTrue(session.containsKey("redrive-console") && session.containsKey(ConsoleSessions.COOKIE), "logged in to the console");
        given().redirects().follow(false).cookies(session).get("/console").then().statusCode(200);
        given().redirects().follow(false).cookies(session).contentType("application/json")
                .accept("application/json, text/event-stream").body(INITIALIZE).post(URI.create(root + "mcp")).then()
                .statusCode(401);
    }

    @Test
    void aTokenWithoutADlqRoleIsA403() {
        given().auth().oauth2(JwtIssuer.token("stranger", "billing")).contentType("application/json")
                .accept("application/json, text/event-stream").body(INITIALIZE).post(URI.create(root + "mcp")).then()
                .statusCode(403);
    }
}
