package dev.redrive.api.mcp;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;

import dev.redrive.api.Callers;
import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.job.LogText;
import dev.redrive.redis.AuditTrail;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What is audited of an MCP call, and where: every tools/call, allowed or refused, leaves one
 * record (action {@code mcp-tool}, the caller, the tool's name as sent, the stream it names, and
 * why it was refused when that is known before it runs). A call that may write (propose_redrive or
 * redrive, by a caller whose roles allow it) on a stream redrive knows goes to that stream's audit
 * trail, kept whole, and is not run unless its record is written. Every other call moves nothing
 * and goes to the capped trail {@code redrive:mcp-calls} ({@code redrive.agents.read-audit-records}),
 * so an agent that polls can't fill Redis; when Redis refuses that record (full, down) the read is
 * answered all the same, as a REST read would be, and the failure is logged and counted.
 */
@ApplicationScoped
class CallAudit {

    private static final Logger LOG = Logger.getLogger(CallAudit.class);

    /** Longest tool or stream name a record keeps of what a caller sent: a real one is far shorter. */
    static final int MAX_NAME = 200;

    @Inject
    Callers callers;

    @Inject
    DeadLetterReader reader;

    @Inject
    AuditTrail trail;

    @Inject
    Clock clock;

    @Inject
    RedriveConfig config;

    @Inject
    AgentRedrives agentRedrives;

    private final Counter failed;

    @Inject
    CallAudit(MeterRegistry registry) {
        failed = Counter.builder("redrive.mcp.audit.failures")
                .description("MCP calls that move nothing whose audit record Redis refused; the calls were answered")
                .register(registry);
    }

    /**
     * Records the call before it runs. {@code tool} is null for a name no tool has; {@code refused}
     * says why the call goes no further, null when it goes on. Throws when the record of a call
     * that may write can't be written: such a call never runs unaudited.
     */
    void record(String toolName, AgentTools.Tool tool, JsonNode args, String refused) {
        String caller = callers.name();
        JsonNode dlq = args == null ? null : args.get("dlq");
        String stream = dlq != null && dlq.isTextual() ? dlq.asText() : null;
        LOG.infof("%s called MCP tool %s%s%s", LogText.of(caller), LogText.of(toolName, MAX_NAME),
                stream == null ? "" : " on " + LogText.of(stream, MAX_NAME), refused == null ? "" : " (refused: " + refused + ")");
        Map<String, String> record = new LinkedHashMap<>();
        record.put("action", "mcp-tool");
        record.put("tool", cut(toolName));
        record.put("actor", caller);
        record.put("at", clock.instant().truncatedTo(ChronoUnit.MILLIS).toString());
        if (stream != null) {
            record.put("dlq", cut(stream));
        }
        if (refused != null) {
            record.put("refused", refused);
        }
        boolean mayWrite = refused == null && tool != null && !tool.readOnly() && tool.roles().stream().anyMatch(callers::has)
                && (!tool.name().equals("redrive") || agentRedrives.whyNot() == null);
        if (mayWrite && stream != null && reader.knownStreams().contains(stream)) {
            trail.append(stream, record).await().atMost(config.redisTimeout());
            return;
        }
        try {
            trail.appendCall(record, config.agents().readAuditRecords()).await().atMost(config.redisTimeout());
        } catch (RuntimeException e) {
            failed.increment();
            LOG.warnf("could not write the audit record of %s's MCP call %s (%s); it moves nothing and is answered all the "
                    + "same, counted in redrive_mcp_audit_failures_total", LogText.of(caller), LogText.of(toolName, MAX_NAME),
                    LogText.of(e.getMessage()));
        }
    }

    private static String cut(String name) {
        return name.length() > MAX_NAME ? name.substring(0, MAX_NAME) + "…" : name;
    }
}
