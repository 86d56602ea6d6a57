package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * The packaged service's /mcp driven by a client that is not redrive's code: the official MCP
 * TypeScript SDK from npm (src/test/mcp-client, pinned by its package-lock.json), run with the
 * machine's Node.js. A viewer is refused propose_redrive; an agent may propose but is refused
 * redrive by default; without credentials the endpoint answers 401. The JVM's class-load log
 * shows the MCP server built at start-up and no service looked up on a request's path, which a
 * native image could not serve (issue 35).
 */
class McpTypeScriptClientIT {

    static final Path CLIENT = Path.of("src/test/mcp-client");
    static final String DLQ = "{agents}:dlq";

    @Test
    void theOfficialTypeScriptClientSeesTheToolsAndTheRoles() throws Exception {
        npmCi();
        try (RedisServer redis = new RedisServer().start()) {
            Map<String, String> config = new HashMap<>(ApiUsers.config());
            config.put("quarkus.redis.hosts", redis.url());
            config.put("redrive.queues.agents.handler", "demo");
            Path loaded = Files.createTempFile("redrive-mcp-classes", ".log");
            try (RedriveProcess service = new RedriveProcess("mcp-ts", config)
                    .jvmOptions(List.of("-Xlog:class+load=info:file=" + loaded)).start()) {
                service.awaitReady(Duration.ofSeconds(90));
                // The server is built at start-up, before any request: a misconfiguration stops start-up instead.
                assertTrue(Files.readString(loaded).contains(" io.modelcontextprotocol.server.McpStatelessSyncServer "),
                        "the MCP server was built at start-up");
                String url = "http://127.0.0.1:" + service.httpPort() + "/mcp";
                HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(401, anonymous.statusCode());

                JsonNode seen = new ObjectMapper().readTree(run("node", "check.mjs", url, DLQ));
                assertEquals("redrive", seen.get("server").asText());
                assertTrue(seen.get("protocolVersion").asText().compareTo("2025-06-18") >= 0, seen.toString());
                assertEquals(9, seen.get("tools").size(), seen.toString());
                for (JsonNode tool : seen.get("tools")) {
                    boolean writes = tool.get("name").asText().contains("redrive");
                    assertEquals(!writes, tool.get("readOnly").asBoolean(), tool.toString());
                    assertEquals(writes, tool.get("destructive").asBoolean(), tool.toString());
                }
                assertFalse(seen.at("/viewerCount/isError").asBoolean(), seen.toString());
                assertTrue(seen.at("/viewerPropose/isError").asBoolean(), seen.toString());
                assertTrue(seen.at("/viewerPropose/text").asText().contains("403"), seen.toString());
                assertFalse(seen.at("/agentPropose/isError").asBoolean(), seen.toString());
                assertTrue(seen.at("/agentPropose/text").asText().contains("\"state\":\"proposed\""), seen.toString());
                assertTrue(seen.at("/agentRedrive/isError").asBoolean(), seen.toString());
                assertTrue(seen.at("/agentRedrive/text").asText().contains("propose_redrive"), seen.toString());
                // No request looked a service up: a native image holds none of the SDK's (issue 35).
                assertFalse(Files.readString(loaded).contains(" io.modelcontextprotocol.util.McpServiceLoader "),
                        "the MCP SDK looked its JSON mapper or schema validator up through ServiceLoader");
            } finally {
                Files.deleteIfExists(loaded);
            }
        }
    }

    /** test.sh runs npm ci; a bare mvn verify does it here, once, from the lock file. */
    private static void npmCi() throws Exception {
        if (!Files.isDirectory(CLIENT.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            run("npm", "ci", "--no-audit", "--no-fund");
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("mcp-ts-", ".out");
        Process p = new ProcessBuilder(command).directory(CLIENT.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), String.join(" ", command) + " did not finish in 180s");
        String output = Files.readString(out);
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + output);
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1];
    }
}
