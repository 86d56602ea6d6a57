package dev.redrive.api.mcp;

import java.util.List;

import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.modelcontextprotocol.spec.ProtocolVersions;
import reactor.core.publisher.Mono;

/**
 * The SDK's seam for a stateless server: it hands over the handler that answers JSON-RPC
 * messages, and {@link McpEndpoint} (a JAX-RS resource, so /mcp is authenticated exactly like the
 * API) calls it. The SDK's own HTTP transports are servlets, which this service does not run.
 */
final class McpTransport implements McpStatelessServerTransport {

    private volatile McpStatelessServerHandler handler;

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        this.handler = handler;
    }

    McpStatelessServerHandler handler() {
        return handler;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty();
    }

    @Override
    public List<String> protocolVersions() {
        return List.of(ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);
    }
}
