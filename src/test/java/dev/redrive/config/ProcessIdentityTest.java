package dev.redrive.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessIdentityTest {

    @Test
    void theRunnerIsTheConsumerWithASuffixPerStart() {
        ProcessIdentity first = new ProcessIdentity("redrive-7f9c-1");
        ProcessIdentity restarted = new ProcessIdentity("redrive-7f9c-1");
        assertEquals("redrive-7f9c-1", first.consumer());
        assertTrue(first.runner().matches("redrive-7f9c-1/[0-9a-f]{8}"), first.runner());
        assertNotEquals(first.runner(), restarted.runner(), "a restart under the same name is another runner");
    }

    @Test
    void withoutAConfiguredNameTheConsumerIsHostAndPid() {
        assertTrue(ProcessIdentity.hostAndPid().endsWith("-" + ProcessHandle.current().pid()), ProcessIdentity.hostAndPid());
    }
}
