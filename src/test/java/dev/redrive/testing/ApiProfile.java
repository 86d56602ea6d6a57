package dev.redrive.testing;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * One Quarkus boot for the API and console tests whose settings don't clash: each class has its own
 * queues and dead-letter streams (jobs: RedrivePaceTest; ctl: RedriveTaskControlTest; pick:
 * RedriveSelectionTest; props: ProposalApiTest and ProposalDecisionsTest; forge: ForgedRequestsTest; agent: McpServerTest; closed: FailClosedInputTest;
 * gen: FilterAgreementTest; invoices and mails: SharedDeadLetterStreamTest; big and other:
 * BigEntryTest; reserved: ReservedFieldsTest; shop, kiosk and deli: ConsoleBrowserTest,
 * ConsoleSafetyBrowserTest and ProposalBrowserTest; wait: WaitingProposalsTest; desk, till and amb:
 * the other console tests and AmbiguousRequestsTest; notes: ReplayNoteTest; pnote:
 * ProposalNoteTest; maudit: McpAuditTest; mask: MaskedFieldsTest; patch: PatchedRedriveTest; jwt and mcpjwt:
 * JwtAuthTest and McpJwtTest, with tokens of {@link JwtIssuer}), so they share the service and its
 * Redis, and assert on their own streams.
 */
public class ApiProfile implements QuarkusTestProfile {

    /** Origins of FilterAgreementTest's generated dead letters. */
    public static final List<String> GEN_ORIGINS = List.of("{gen}a", "{gen}b", "{gen}c");
    /** Streams the redrive tests redrive into, which no worker reads: replayed jobs stay there to be counted. */
    public static final List<String> REDRIVE_TARGETS = List.of("{jobs}pace", "{jobs}fast", "{jobs}dry", "{jobs}canary",
            "{ctl}cancel", "{ctl}restart", "{ctl}overlap", "{ctl}stuck",
            "{pick}pick", "{pick}odd", "{pick}wrongtype", "{pick}beside",
            "{props}proposed", "{props}approved", "{props}frozen", "{forge}back", "{agent}back", "{closed}pick", "{mcpjwt}parked",
            "{patch}ai");
    /** The one origin besides its own whose pages this boot takes state changes from (redrive.allowed-origins). */
    public static final String ALLOWED_ORIGIN = "https://console.redrive.test";
    /** Snapshot fields the console masks in this boot. */
    public static final String REDACTED = "card, token";
    /** The consumer and runner name of this boot. */
    public static final String CONSUMER = "api-worker";

    @Override
    public Map<String, String> getConfigOverrides() {
        TestConfig c = TestConfig.withApiUsers()
                .queue("jobs").attempts(1).retryPoll("20ms").and()
                .queue("ctl").attempts(1).and()
                .queue("pick").attempts(1).and()
                .queue("gen").and()
                .queue("invoices").set("dlq", "dead-letters").and()
                .queue("mails").set("dlq", "dead-letters").and();
        c.queue("props").attempts(1).and().queue("agent").attempts(1).and().queue("closed").attempts(1).and()
                .queue("jwt").handler("demo").and().queue("mcpjwt").handler("demo");
        for (String big : List.of("big", "other", "reserved")) {
            c.queue(big).attempts(1).retryPoll("20ms").set("visibility-timeout", "1s");
        }
        for (String console : List.of("shop", "kiosk", "deli")) {
            c.queue(console).handler("fixable").attempts(1);
        }
        c.queue("wait").attempts(1);
        c.queue("forge").attempts(1);
        c.queue("maudit").attempts(1);
        c.queue("mask").attempts(1);
        // A dead-letter stream whose name needs no escaping, so plain HTTP tests can spell its paths.
        c.queue("desk").handler("fixable").attempts(1).set("dlq", "desk-dead");
        c.queue("till").handler("fixable").attempts(1).set("dlq", "till-dead");
        c.queue("amb").handler("fixable").attempts(1).set("dlq", "amb-dead");
        c.queue("notes").handler("fixable").attempts(1).set("dlq", "notes-dead");
        c.queue("pnote").attempts(1).set("dlq", "pnote-dead");
        c.queue("patch").attempts(1);
        return c.set("redrive.replay.allowed-streams",
                        String.join(",", Stream.concat(REDRIVE_TARGETS.stream(), GEN_ORIGINS.stream()).toList()))
                .set("redrive.replay.automation-enabled", "true")
                .set("redrive.replay.redrive-lease", "2s")
                .set("redrive.replay.canary-timeout", "20s")
                .set("redrive.consumer-name", CONSUMER)
                .set("redrive.console.redact-fields", REDACTED)
                .set("redrive.console.refresh", "1s")
                .set("redrive.allowed-origins", ALLOWED_ORIGIN)
                // The fewest MCP call records kept, so McpAuditTest sees the trail trimmed after a few more.
                .set("redrive.agents.read-audit-records", "1000")
                // Long enough that a lockout outlasts the requests a test makes during it (ThrottledLoginsTest steps the clock past it).
                .set("redrive.logins.lockout", "30s")
                .build();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisResource.class), new TestResourceEntry(JwtIssuer.class));
    }
}
