package dev.redrive.api.mcp;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.McpClients;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Every MCP call leaves one audit record, allowed or refused, and the records of calls that move
 * nothing can't fill Redis (redrive:mcp-calls is capped; this boot keeps 1000) nor stop a read
 * when Redis is full: through the SDK's client and raw JSON-RPC, on the profile's real Redis.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class McpAuditTest {

    static final String CALLS = RedisKeys.mcpCalls();

    @Inject
    @Own("maudit")
    TestQueue maudit;

    @Inject
    MeterRegistry meters;

    @TestHTTPResource("/")
    URL root;

    @Test
    void everyCallLeavesOneRecordAllowedOrRefused() {
        String since = lastCall();
        String unknown = "nope-" + UUID.randomUUID();
        McpClients.as("viewer", client -> {
            client.callTool(new McpSchema.CallToolRequest("list_dead_letter_streams", Map.of()));
            client.callTool(new McpSchema.CallToolRequest("list_causes", Map.of("dlq", unknown)));
            // refused by the input schema, which the SDK checks before a tool runs
            client.callTool(new McpSchema.CallToolRequest("list_entries", Map.of("dlq", maudit.dlq(), "failure", "often")));
            // refused by the caller's roles
            client.callTool(new McpSchema.CallToolRequest("propose_redrive", Map.of("dlq", maudit.dlq())));
            // refused by the agents' rule (api/mcp/AgentRedrives), which the tool checks as it runs
            client.callTool(new McpSchema.CallToolRequest("redrive", Map.of("dlq", maudit.dlq())));
        });
        raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}");
        raw("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"drop_everything\",\"arguments\":{}}}");

        assertEquals(List.of("viewer list_dead_letter_streams", "viewer list_causes " + unknown,
                "viewer list_entries " + maudit.dlq(), "viewer propose_redrive " + maudit.dlq() + " refused=forbidden",
                "viewer redrive " + maudit.dlq(), "viewer  refused=invalid-params", "viewer drop_everything refused=unknown-tool"), callsSince(since));
        assertFalse(maudit.redis().key().exists(maudit.dlq() + ":audit"),
                "the stream's own trail holds only calls that may write, kept whole (McpServerTest)");
    }

    @Test
    void theCallsTrailIsCapped() {
        for (int i = 0; i < 1500; i++) {
            maudit.redis().execute("XADD", CALLS, "*", "action", "seeded");
        }
        McpClients.as("viewer", client -> client.callTool(new McpSchema.CallToolRequest("list_dead_letter_streams", Map.of())));
        long length = maudit.redis().stream(String.class).xlen(CALLS);
        // MAXLEN ~ trims whole nodes of the stream (100 entries each by default): 1000 and a few more stay
        assertTrue(length >= 1000 && length < 1500, "length " + length);
    }

    @Test
    void aFullRedisStillAnswersReadsButRunsNoUnauditedWrite() {
        double before = auditFailures();
        maudit.redis().execute("CONFIG", "SET", "maxmemory-policy", "noeviction");
        maudit.redis().execute("CONFIG", "SET", "maxmemory", "1");
        try {
            McpClients.as("automation", client -> {
                McpSchema.CallToolResult read = client.callTool(new McpSchema.CallToolRequest("list_dead_letter_streams", Map.of()));
                assertFalse(Boolean.TRUE.equals(read.isError()), () -> McpServerTest.text(read));
                McpSchema.CallToolResult write = client.callTool(new McpSchema.CallToolRequest("propose_redrive",
                        Map.of("dlq", maudit.dlq(), "note", "while full")));
                McpServerTest.refused(write, "503");
            });
        } finally {
            maudit.redis().execute("CONFIG", "SET", "maxmemory", "0");
        }
        assertEquals(before + 1, auditFailures(), "the read's record that Redis refused is counted");
        assertFalse(maudit.redis().key().exists(RedisKeys.proposals(maudit.dlq())), "no proposal was made unaudited");
    }

    private double auditFailures() {
        Counter counter = meters.find("redrive.mcp.audit.failures").counter();
        return counter == null ? 0 : counter.count();
    }

    private void raw(String message) {
        given().auth().preemptive().basic("viewer", ApiUsers.password("viewer")).contentType("application/json")
                .accept("application/json, text/event-stream").body(message).post(URI.create(root + "mcp"))
                .then().statusCode(200);
    }

    private String lastCall() {
        var last = maudit.redis().execute("XREVRANGE", CALLS, "+", "-", "COUNT", "1");
        return last.size() == 0 ? "0-0" : last.get(0).get(0).toString();
    }

    /** The records after {@code since}, oldest first, as "actor tool [dlq] [refused=why]". */
    private List<String> callsSince(String since) {
        List<String> calls = new ArrayList<>();
        for (var entry : maudit.redis().execute("XRANGE", CALLS, "(" + since, "+")) {
            Map<String, String> f = new java.util.HashMap<>();
            var pairs = entry.get(1);
            for (int i = 0; i < pairs.size(); i += 2) {
                f.put(pairs.get(i).toString(), new String(pairs.get(i + 1).toBytes(), StandardCharsets.UTF_8));
            }
            calls.add(f.get("actor") + " " + f.get("tool") + (f.containsKey("dlq") ? " " + f.get("dlq") : "")
                    + (f.containsKey("refused") ? " refused=" + f.get("refused") : ""));
        }
        return calls;
    }
}
