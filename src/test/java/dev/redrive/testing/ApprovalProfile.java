package dev.redrive.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * A boot where every bulk redrive needs a second person's approval
 * (redrive.redrives.require-approval) and agents are allowed to redrive, which the approval rule
 * overrides: for the tests of both rules together.
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
                .set("redrive.replay.allowed-streams", TARGET)
                .set("redrive.redrives.require-approval", "true")
                .set("redrive.agents.may-redrive", "true")
                .set("redrive.consumer-name", "approval-worker")
                .build();
    }
}
