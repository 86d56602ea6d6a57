package dev.redrive.testing;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * A boot where agents may not replay single entries (redrive.replay.automation-enabled, off as it
 * ships) and every bulk redrive needs a second person's approval (redrive.redrives.require-approval)
 * though agents are allowed to redrive, which the approval rule overrides. Queue appr is
 * ApprovalRequiredTest's; with two attempts, a repeat offender after two replays and replay bodies
 * of 4 KiB at most, queue jobs is DeadLetterApiTest's, access DeadLetterAccessTest's and replay
 * ReplayApiTest's.
 */
public class ApprovalProfile implements QuarkusTestProfile {

    /** The dead-letter stream of this boot's queue. */
    public static final String DLQ = "{appr}:dlq";
    /** The stream its dead letters came from and go back to (no worker reads it). */
    public static final String TARGET = "{appr}back";

    @Override
    public Map<String, String> getConfigOverrides() {
        return TestConfig.withApiUsers()
                .queue("appr").attempts(1).and()
                .queue("jobs").attempts(2).backoff("50ms").retryPoll("20ms").and()
                .queue("access").attempts(2).backoff("50ms").retryPoll("20ms").and()
                .queue("replay").attempts(2).backoff("50ms").retryPoll("20ms").and()
                .set("redrive.replay.allowed-streams", TARGET)
                .set("redrive.replay.automation-enabled", "false")
                .set("redrive.replay.repeat-offender-after", "2")
                .set("redrive.replay.max-body-bytes", "4096")
                .set("redrive.redrives.require-approval", "true")
                .set("redrive.agents.may-redrive", "true")
                .set("redrive.consumer-name", "approval-worker")
                .build();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisResource.class));
    }
}
