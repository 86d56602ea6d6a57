package dev.redrive.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Consumer;

import org.eclipse.microprofile.config.ConfigProvider;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The MCP Java SDK's client on the boot's {@code /mcp}, as the MCP tests use it: initialized (the
 * server named redrive, at least the protocol version the tests speak), run, and closed.
 */
public final class McpClients {

    /** The oldest MCP protocol version redrive answers with. */
    public static final String PROTOCOL = "2025-06-18";

    private McpClients() {
    }

    /** Runs {@code use} with an initialized client logged in as one of {@link ApiUsers}. */
    public static void as(String user, Consumer<McpSyncClient> use) {
        String basic = Base64.getEncoder().encodeToString((user + ":" + ApiUsers.password(user)).getBytes(StandardCharsets.UTF_8));
        with("Basic " + basic, use);
    }

    /** Runs {@code use} with an initialized client that sends {@code token} as its bearer. */
    public static void bearer(String token, Consumer<McpSyncClient> use) {
        with("Bearer " + token, use);
    }

    private static void with(String authorization, Consumer<McpSyncClient> use) {
        String base = ConfigProvider.getConfig().getValue("test.url", String.class).replaceAll("/$", "");
        var transport = HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", authorization)).build();
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            McpSchema.InitializeResult init = client.initialize();
            assertEquals("redrive", init.serverInfo().name());
            assertTrue(init.protocolVersion().compareTo(PROTOCOL) >= 0, init.protocolVersion());
            use.accept(client);
        }
    }
}
