package dev.redrive.api;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * The problem responses the operator API (every path under /dlq) shares, declared once in
 * {@link ApiDocs}' components and applied here as the OpenAPI document is built
 * ({@code mp.openapi.filter}):
 * <ul>
 * <li>every operation answers 401, 403 and 503 (Redis down, full or slow) unless it, or its
 * resource, declares one of them of its own, in full with its content (a proposal's 403 names
 * own-proposal, a replay's 503 not-replicated); one without content is a placeholder (Quarkus adds
 * "Not Authorized" and "Not Allowed" to every secured operation) and is replaced;
 * <li>every POST answers 415 not-json (api/ApiWrites) unless it declares its own;
 * <li>a response that names a shared one ({@code ref = ProblemResponses.BUSY}: a read's 503 with
 * Retry-After, {@link ReadPermits}) is that response in full;
 * <li>every 4xx and 5xx declared without content is a {@link Problem} as application/problem+json.
 * </ul>
 * The shared responses then leave the components: each operation carries its responses inline, as
 * clients have always read them. MCP answers in JSON-RPC, so /mcp is left as Quarkus documents it.
 */
public class ProblemResponses implements OASFilter {

    static final String UNAUTHORIZED = "unauthorized";
    static final String FORBIDDEN = "forbidden";
    static final String UNAVAILABLE = "unavailable";
    static final String BUSY = "busy";
    static final String NOT_JSON = "not-json";

    private static final String OPERATOR_API = "/dlq";
    /** The response every operation has, by status code, unless it declares its own. */
    private static final Map<String, String> EVERY_OPERATION = Map.of("401", UNAUTHORIZED, "403", FORBIDDEN,
            "503", UNAVAILABLE);

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Components components = openAPI.getComponents();
        Map<String, APIResponse> shared = new LinkedHashMap<>(components.getResponses());
        components.setResponses(null);
        APIResponse problem = shared.get(UNAUTHORIZED);
        openAPI.getPaths().getPathItems().forEach((path, item) -> {
            if (path.equals(OPERATOR_API) || path.startsWith(OPERATOR_API + "/")) {
                item.getOperations().forEach((method, operation) -> {
                    apply(operation, shared, problem);
                    if (method == PathItem.HttpMethod.POST && operation.getResponses().getAPIResponse("415") == null) {
                        operation.getResponses().addAPIResponse("415", shared.get(NOT_JSON));
                    }
                });
            }
        });
    }

    private static void apply(Operation operation, Map<String, APIResponse> shared, APIResponse problem) {
        APIResponses responses = operation.getResponses();
        Map<String, APIResponse> declared = new LinkedHashMap<>(responses.getAPIResponses());
        declared.forEach((code, response) -> {
            if (response.getRef() != null) {
                String name = response.getRef().substring(response.getRef().lastIndexOf('/') + 1);
                APIResponse named = shared.get(name);
                if (named == null) {
                    throw new IllegalStateException("no shared response " + name + " (ApiDocs' components)");
                }
                responses.addAPIResponse(code, named);
            } else if (response.getContent() == null && code.matches("[45]\\d\\d") && !EVERY_OPERATION.containsKey(code)) {
                response.setContent(problem.getContent());
            }
        });
        EVERY_OPERATION.forEach((code, name) -> {
            APIResponse own = declared.get(code);
            if (own == null || own.getRef() == null && own.getContent() == null) {
                responses.addAPIResponse(code, shared.get(name));
            }
        });
    }
}
