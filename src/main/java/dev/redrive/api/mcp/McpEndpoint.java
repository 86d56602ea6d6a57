package dev.redrive.api.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.ServiceConfigurationError;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.api.Problem;
import dev.redrive.api.ProblemException;
import dev.redrive.api.Roles;
import dev.redrive.config.RedriveConfig;
import dev.redrive.job.LogText;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapperSupplier;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.JacksonJsonSchemaValidatorSupplier;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.common.annotation.Blocking;

/**
 * The Model Context Protocol server for agents: stateless Streamable HTTP at /mcp on the main
 * port. A POST carries one JSON-RPC message and its answer comes back as plain JSON (the
 * transport's non-streaming form: no session, no server-sent events, so any replica answers any
 * call). Authenticated and role-checked like the API (Basic or bearer JWT; any dlq-* role gets in,
 * each tool checks its own roles); every tool call is audited ({@link CallAudit})
 * before the SDK reads it.
 */
@Path("/mcp")
@Singleton
@Startup
// The SDK's own providers, should any of its paths still look them up (McpJsonDefaults): the image
// holds their services files (quarkus.native.resources.includes) and can construct them.
@RegisterForReflection(targets = { JacksonMcpJsonMapperSupplier.class, JacksonJsonSchemaValidatorSupplier.class })
@Blocking
@Tag(name = "MCP", description = "Model Context Protocol tools for agents (README, Agents and approvals)")
@SecurityRequirement(name = "basic")
@SecurityRequirement(name = "jwt")
public class McpEndpoint {

    private static final Logger LOG = Logger.getLogger(McpEndpoint.class);

    /** The header that names the protocol version of every request after initialize. */
    static final String PROTOCOL_HEADER = "MCP-Protocol-Version";

    /** A JSON-RPC message is small: tool arguments are filters and notes. */
    static final int MAX_MESSAGE_BYTES = 64 * 1024;

    @Inject
    AgentTools tools;

    @Inject
    ToolCalls calls;

    @Inject
    RedriveConfig config;

    private final McpTransport transport = new McpTransport();
    private final ObjectMapper mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
            false);
    private final McpJsonMapper json = new JacksonMcpJsonMapper(mapper);
    private McpStatelessSyncServer server;

    /**
     * Built at start-up (@Startup), not on the first request: a server that can't be built stops
     * the process with the reason instead of answering 500 to the first agent. Its JSON mapper and
     * schema validator are given, never looked up: the SDK would find them through ServiceLoader,
     * which a native image holds no providers for (Quarkus registers no library's services), so
     * every /mcp call of a native redrive answered 500.
     */
    @PostConstruct
    void start() {
        try {
            server = McpServer.sync(transport).serverInfo("redrive", "1")
                    .instructions("Dead-letter streams of redrive: read parked jobs and their causes, count what a "
                            + "filter selects, and propose a bulk redrive for a human operator to approve.")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build()).jsonMapper(json)
                    .jsonSchemaValidator(new DefaultJsonSchemaValidator(mapper))
                    // the tools run on this request's worker thread, where the caller's identity is
                    .immediateExecution(true).tools(tools.specifications()).build();
        } catch (RuntimeException | ServiceConfigurationError e) {
            throw new IllegalStateException("the MCP server at /mcp could not be built: " + e, e);
        }
        LOG.infof("MCP server ready at /mcp with %d tools", tools.specifications().size());
    }

    @PreDestroy
    void stop() {
        server.close();
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "One MCP JSON-RPC message (Streamable HTTP, stateless)",
            description = "initialize, tools/list and tools/call; protocol 2025-06-18 or 2025-11-25 (MCP-Protocol-Version). "
                    + "A request is answered with its JSON-RPC response (a tools/call whose params are not an object "
                    + "with a string name and an object or no arguments: error -32602 Invalid params); a notification "
                    + "or response with 202 and no body.")
    @APIResponse(responseCode = "200", description = "The JSON-RPC response")
    @APIResponse(responseCode = "202", description = "A notification, accepted")
    @APIResponse(responseCode = "400", description = "Not one JSON-RPC message, or an MCP-Protocol-Version header "
            + "naming a version this server does not speak (the detail lists those it does)")
    public Response message(@HeaderParam(PROTOCOL_HEADER) String protocolVersion, byte[] body) {
        // The transport says a server MUST answer 400 to a version it does not speak, rather than
        // guess what the client means; a request without the header (an initialize) is served.
        if (protocolVersion != null && !transport.protocolVersions().contains(protocolVersion)) {
            throw new ProblemException(400, "unsupported-protocol-version", "Unsupported MCP protocol version",
                    PROTOCOL_HEADER + " " + LogText.of(protocolVersion, 40) + " is not one this server speaks; it speaks "
                            + String.join(", ", transport.protocolVersions()));
        }
        if (body == null || body.length == 0 || body.length > MAX_MESSAGE_BYTES) {
            throw ProblemException.badRequest("a POST to /mcp carries one JSON-RPC message of at most "
                    + MAX_MESSAGE_BYTES + " bytes");
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, new String(body, StandardCharsets.UTF_8));
        } catch (IOException | IllegalArgumentException e) {
            throw ProblemException.badRequest("not a JSON-RPC message: " + e.getMessage());
        }
        McpTransportContext context = McpTransportContext.create(Map.of());
        if (message instanceof McpSchema.JSONRPCRequest request) {
            McpSchema.JSONRPCResponse refused = McpSchema.METHOD_TOOLS_CALL.equals(request.method())
                    ? calls.admit(request) : null;
            McpSchema.JSONRPCResponse answer = refused != null ? refused
                    : transport.handler().handleRequest(context, request).block(config.redisTimeout().multipliedBy(4));
            try {
                return Response.ok(json.writeValueAsString(answer), MediaType.APPLICATION_JSON).build();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        if (message instanceof McpSchema.JSONRPCNotification notification) {
            transport.handler().handleNotification(context, notification).block(config.redisTimeout());
        }
        return Response.accepted().build();
    }

    /** No server-sent event stream: this server never sends a message of its own. */
    @GET
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    public Response stream() {
        return notAllowed();
    }

    /** No session to end: the server is stateless. */
    @DELETE
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    public Response end() {
        return notAllowed();
    }

    private static Response notAllowed() {
        return Response.fromResponse(Problem.of(405, "method-not-allowed", "Method Not Allowed",
                "this MCP server is stateless: POST one JSON-RPC message to /mcp").response()).header("Allow", "POST")
                .build();
    }
}
