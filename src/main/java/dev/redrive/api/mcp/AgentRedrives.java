package dev.redrive.api.mcp;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.api.Callers;
import dev.redrive.api.Roles;
import dev.redrive.config.RedriveConfig;

/**
 * The agents' own rule for the MCP tool {@code redrive} (the approval rule is redrive/RedriveTasks'):
 * only a dlq-automation caller, only with redrive.agents.may-redrive. One owner, asked by the tool
 * before it starts anything and by {@link CallAudit} to tell a call that may write (kept whole in
 * the stream's trail) from one that is refused (kept in the capped stream), so a caller the rule
 * refuses can't grow an uncapped trail however often it calls.
 */
@ApplicationScoped
class AgentRedrives {

    @Inject
    RedriveConfig config;

    @Inject
    Callers callers;

    /** Why this caller may not start a redrive through MCP, or null when they may. */
    String whyNot() {
        return !config.agents().mayRedrive() ? "agents may not start redrives (redrive.agents.may-redrive is false)"
                : !callers.has(Roles.AUTOMATION) ? "only a dlq-automation caller may start a redrive through MCP"
                : null;
    }
}
