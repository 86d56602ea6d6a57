package dev.redrive.api.mcp;

import io.quarkus.runtime.annotations.RegisterForReflection;
import static dev.redrive.api.mcp.ToolSchemas.DLQ;
import static dev.redrive.api.mcp.ToolSchemas.FILTER;
import static dev.redrive.api.mcp.ToolSchemas.integer;
import static dev.redrive.api.mcp.ToolSchemas.object;
import static dev.redrive.api.mcp.ToolSchemas.string;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.redrive.api.Callers;
import dev.redrive.api.DeadLetterResource;
import dev.redrive.api.ProblemException;
import dev.redrive.api.ProposalResource;
import dev.redrive.api.ReadPermits;
import dev.redrive.api.JsonBodies;
import dev.redrive.api.Roles;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.redrive.Proposal;
import dev.redrive.redrive.Proposals;
import dev.redrive.redrive.RedriveSpec;
import dev.redrive.redrive.RedriveTasks;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.smallrye.mutiny.Uni;

/**
 * The MCP tools: the API's reads, a dry count, proposals, and a direct redrive only where
 * configuration allows it. Each tool asks the code the API runs (its resources and services), so
 * filters, limits, cuts, masking ({@code RedactedFields}: never revealed to an agent) and problems
 * are the API's; each checks the caller's roles itself and is
 * audited ({@link CallAudit}). Results are bounded by the API's cuts and by {@link ToolCalls#MAX_RESULT_CHARS}.
 */
@ApplicationScoped
public class AgentTools {

    private static final Set<String> ANY = Set.of(Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION);
    private static final Set<String> WRITERS = Set.of(Roles.OPERATOR, Roles.AUTOMATION);

    /** One tool: what an agent sees of it, who may call it, and what it does with the arguments. */
    @RegisterForReflection // read by Jackson in a native image too
    record Tool(String name, String description, Map<String, Object> schema, boolean readOnly, Set<String> roles,
            Function<JsonNode, Object> run) {
    }

    @Inject
    DeadLetterResource entries;

    @Inject
    ProposalResource proposalApi;

    @Inject
    Proposals proposals;

    @Inject
    RedriveTasks redrives;

    @Inject
    DeadLetterReader reader;

    @Inject
    ReadPermits permits;

    @Inject
    ToolCalls calls;

    @Inject
    Callers callers;

    @Inject
    AgentRedrives agentRedrives;

    @Inject
    ObjectMapper mapper;

    @Inject
    JsonBodies bodies;

    List<SyncToolSpecification> specifications() {
        return tools().stream().map(t -> new SyncToolSpecification(McpSchema.Tool.builder().name(t.name())
                .description(t.description()).inputSchema(t.schema())
                .annotations(new McpSchema.ToolAnnotations(null, t.readOnly(), !t.readOnly(), false, false, null))
                .build(), (context, request) -> calls.call(t, request))).toList();
    }

    List<Tool> tools() {
        return List.of(
                new Tool("list_dead_letter_streams", "Every dead-letter stream: depth, oldest and newest dead-at, counts "
                        + "by origin, failure kind and cause.", object(List.of()), true, ANY,
                        args -> await(entries.list())),
                new Tool("list_causes", "The causes of one stream's parked jobs (fingerprint, count, first and last "
                        + "seen, a sample reason), most frequent first.", object(List.of("dlq"), "dlq", DLQ), true, ANY,
                        args -> await(reader.summary(dlq(args))).byFingerprint()),
                new Tool("list_entries", "A page of parked jobs, newest first unless order is oldest, filtered; ask "
                        + "again with after=next. Values are cut as in the API (named in truncated).",
                        listEntriesSchema(), true, ANY, this::listEntries),
                new Tool("get_entry", "One parked job: its record and the job's fields (snapshot); masked fields stay "
                        + "masked, long values are cut (named in truncated).",
                        object(List.of("dlq", "id"), "dlq", DLQ, "id", string("The dead-letter entry id")), true, ANY,
                        args -> await(entries.entry(dlq(args), text(args, "id"), null))),
                new Tool("get_audit", "The stream's audit trail, newest first: every replay, discard, redrive, "
                        + "proposal and call of propose_redrive or redrive, with who.", object(List.of("dlq"), "dlq", DLQ, "count",
                                integer("Records per page. Defaults to 50", 1, 500), "after", string("next of the previous page")),
                        true, ANY, args -> await(entries.audit(dlq(args), number(args, "count"), text(args, "after")))),
                new Tool("count_matches", "How many parked jobs a filter selects now (a dry run that moves nothing); "
                        + "complete is false when the count stopped at redrive.proposals.count-limit.",
                        object(List.of("dlq"), "dlq", DLQ, "filter", FILTER), true, ANY,
                        args -> proposals.count(dlq(args), bodies.redrive(filterOnly(args), false).filter())),
                new Tool("get_proposal", "One proposed redrive: its state (proposed, approved, rejected, expired), "
                        + "until (it moves only entries parked up to that id), parkedSince (matching entries parked "
                        + "after it, not in it), who decided, and the task an approval started.",
                        object(List.of("dlq", "id"), "dlq", DLQ, "id", string("The proposal id")), true, ANY,
                        args -> proposalApi.get(dlq(args), text(args, "id"))),
                new Tool("propose_redrive", "Proposes a bulk redrive for a human operator to approve; nothing moves "
                        + "until then. Returns the proposal, with matched and a console link.", ToolSchemas.redrive(),
                        false, WRITERS, this::propose),
                new Tool("redrive", "Starts a bulk redrive at once. Only for dlq-automation callers where "
                        + "redrive.agents.may-redrive is true and approval is not required; otherwise use propose_redrive.",
                        ToolSchemas.redrive(), false, ANY, this::redrive));
    }

    /** The tool of that name, if there is one. */
    Optional<Tool> named(String name) {
        return tools().stream().filter(t -> t.name().equals(name)).findFirst();
    }

    private Object listEntries(JsonNode args) {
        JsonNode ids = args.get("ids");
        String idList = null;
        if (ids != null) {
            if (!ids.isArray()) {
                throw ProblemException.badRequest("ids must be an array of entry ids");
            }
            idList = String.join(",", mapper.convertValue(ids, String[].class));
        }
        return await(entries.entries(dlq(args), number(args, "count"), text(args, "after"), text(args, "order"),
                text(args, "origin"), text(args, "job"), text(args, "failure"), text(args, "fingerprint"),
                text(args, "deadFrom"), text(args, "deadTo"), idList, text(args, "text")));
    }

    private Map<String, Object> listEntriesSchema() {
        Map<String, Object> filters = ToolSchemas.filterProperties();
        return object(List.of("dlq"), "dlq", DLQ, "count", integer("Items per page. Defaults to 50", 1, 500), "after",
                string("next of the previous page"), "order", Map.of("type", "string", "enum", List.of("newest", "oldest")),
                "origin", filters.get("origin"), "job", filters.get("job"), "failure", filters.get("failure"),
                "fingerprint", filters.get("fingerprint"), "deadFrom", filters.get("deadFrom"), "deadTo",
                filters.get("deadTo"), "ids", filters.get("ids"), "text", filters.get("text"));
    }

    private Object propose(JsonNode args) {
        String dlq = dlq(args);
        Proposal proposal = proposals.propose(dlq, spec(args), callers.name());
        Map<String, Object> out = new LinkedHashMap<>(mapper.convertValue(proposal, Map.class));
        out.put("console", "/console/dlq/" + URLEncoder.encode(dlq, StandardCharsets.UTF_8).replace("+", "%20")
                + "/proposals/" + proposal.id());
        return out;
    }

    private Object redrive(JsonNode args) {
        // The approval rule is RedriveTasks.start's (403 approval-required); this is the agents' own.
        String why = agentRedrives.whyNot();
        if (why != null) {
            throw new ProblemException(403, "agent-may-not-redrive", "Propose instead",
                    why + "; use propose_redrive, and an operator approves it");
        }
        return redrives.start(dlq(args), spec(args), callers.name());
    }

    private RedriveSpec spec(JsonNode args) {
        ObjectNode body = args.deepCopy();
        body.remove("dlq");
        return bodies.redrive(body, false);
    }

    private static JsonNode filterOnly(JsonNode args) {
        ObjectNode body = args.deepCopy();
        body.remove("dlq");
        return body;
    }

    private <T> T await(Uni<T> read) {
        return permits.await(read);
    }

    /** The stream the tool is about, known to redrive (else the API's 404). */
    private String dlq(JsonNode args) {
        String dlq = text(args, "dlq");
        if (dlq == null) {
            throw ProblemException.badRequest("dlq is required: a dead-letter stream's name");
        }
        return dlq;
    }

    static String text(JsonNode args, String name) {
        JsonNode v = args.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ProblemException.badRequest(name + " must be a string");
        }
        return v.asText();
    }

    private static String number(JsonNode args, String name) {
        JsonNode v = args.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isInt()) {
            throw ProblemException.badRequest(name + " must be a whole number");
        }
        return v.asText();
    }
}
