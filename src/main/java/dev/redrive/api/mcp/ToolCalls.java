package dev.redrive.api.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.api.Callers;
import dev.redrive.api.Problem;
import dev.redrive.api.ProblemMappers;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * One tool call as the server runs it: audited with the caller and the tool's name before the SDK
 * reads it ({@link #admit}, {@link CallAudit}), role-checked, run, and answered within bounds. A
 * refusal or failure is an MCP tool error (isError) carrying the API's problem (status, type,
 * title, detail), so an agent reads the same text a REST caller would.
 */
@ApplicationScoped
class ToolCalls {

    /**
     * Largest tool result, in characters: the API's own cuts keep a page small, and this keeps a
     * result that still grew past it (a page of entries near redrive.reads.entry-bytes) out of an
     * agent's context; the answer then says so and how to ask for less.
     */
    static final int MAX_RESULT_CHARS = 256 * 1024;

    @Inject
    Callers callers;

    @Inject
    ObjectMapper mapper;

    @Inject
    ProblemMappers problems;

    @Inject
    AgentTools tools;

    @Inject
    CallAudit audit;

    McpSchema.CallToolResult call(AgentTools.Tool tool, McpSchema.CallToolRequest request) {
        JsonNode args = mapper.valueToTree(request.arguments() == null ? Map.of() : request.arguments());
        try {
            if (!allowed(tool)) {
                return error(Problem.of(403, "forbidden", "Forbidden", "your roles do not allow the tool "
                        + tool.name() + "; it needs one of " + tool.roles() + " (docs/API.md, Roles)"));
            }
            String text = mapper.writeValueAsString(tool.run().apply(args));
            if (text.length() > MAX_RESULT_CHARS) {
                return McpSchema.CallToolResult.builder().isError(false).addTextContent("the result of " + tool.name()
                        + " has " + text.length() + " characters, over the " + MAX_RESULT_CHARS + " a tool result "
                        + "may carry, and was cut out: ask for fewer items (count) or one entry (get_entry)").build();
            }
            return McpSchema.CallToolResult.builder().isError(false).addTextContent(text).build();
        } catch (RuntimeException | JsonProcessingException e) {
            return error(e);
        }
    }

    /**
     * A tools/call as it arrives, before the SDK reads it: audited first ({@link CallAudit}), so
     * calls that the SDK's schema check, an unknown name or the roles refuse leave their record
     * too. Params that are no call (not an object, no string name, arguments that are not an
     * object) are answered with JSON-RPC's -32602 here, which the SDK would fail on with an
     * exception (a 500). Returns that answer, or a tool error when a call that may write could not
     * be audited, or null when the call goes on to the SDK.
     */
    McpSchema.JSONRPCResponse admit(McpSchema.JSONRPCRequest request) {
        JsonNode params = request.params() == null ? null : mapper.valueToTree(request.params());
        JsonNode arguments = params == null ? null : params.get("arguments");
        String wrong = params == null || !params.isObject() ? "params must be an object with the tool's name and arguments"
                : !params.path("name").isTextual() ? "params.name must be a string: the tool's name"
                : arguments != null && !arguments.isNull() && !arguments.isObject() ? "params.arguments must be an object"
                : null;
        String name = params != null && params.path("name").isTextual() ? params.get("name").asText() : "";
        AgentTools.Tool tool = tools.named(name).orElse(null);
        String refused = wrong != null ? "invalid-params" : tool == null ? "unknown-tool" : !allowed(tool) ? "forbidden" : null;
        try {
            audit.record(name, tool, wrong == null ? arguments : null, refused);
        } catch (RuntimeException e) {
            return McpSchema.JSONRPCResponse.result(request.id(), error(e));
        }
        return wrong == null ? null : McpSchema.JSONRPCResponse.error(request.id(),
                new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: " + wrong));
    }

    private boolean allowed(AgentTools.Tool tool) {
        return tool.roles().stream().anyMatch(callers::has);
    }

    /** The API's problem for what failed, as a tool error. */
    private McpSchema.CallToolResult error(Exception e) {
        Object entity = problems.toResponse(e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                ? e.getCause() : e).getEntity();
        return error(entity instanceof Problem p ? p
                : Problem.of(500, "internal", "Internal error", "the tool failed on the server; see its log"));
    }

    private McpSchema.CallToolResult error(Problem p) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", p.type());
        problem.put("title", p.title());
        problem.put("status", p.status());
        problem.put("detail", p.detail());
        return McpSchema.CallToolResult.builder().isError(true)
                .content(List.of(new McpSchema.TextContent(p.title() + " (" + p.status() + "): " + p.detail())))
                .structuredContent(problem).build();
    }
}
