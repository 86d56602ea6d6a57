package dev.redrive.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.redrive.config.InvalidConfigException;

/**
 * A configured user may not be named redrive, the proposer of redrive's own proposals, however
 * spelt: start-up stops with a message that names the property (it/BadConfigIT runs it in the
 * packaged service); every other name passes.
 */
class ReservedNamesTest {

    @Test
    void aConfiguredUserNamedRedriveHoweverSpeltIsRefusedNamingItsProperty() {
        for (String user : List.of("redrive", "Redrive", "REDRIVE")) {
            InvalidConfigException refused = assertThrows(InvalidConfigException.class,
                    () -> ReservedNames.refuse(List.of("operator", user)));
            assertEquals("Invalid configuration: quarkus.security.users.embedded.users." + user + " names a user '"
                    + user + "', which is the name redrive proposes under after an outage (README, \"After an outage\"): "
                    + "no person may use it, however spelt; give the user another name", refused.getMessage());
        }
    }

    @Test
    void everyOtherNamePasses() {
        ReservedNames.refuse(List.of("operator", "redriver", "re-drive", "redrive-oncall"));
    }
}
