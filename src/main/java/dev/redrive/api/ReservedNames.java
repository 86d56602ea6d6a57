package dev.redrive.api;

import java.util.Collection;
import java.util.Map;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import dev.redrive.config.InvalidConfigException;
import dev.redrive.job.LogText;
import dev.redrive.redrive.FourEyes;
import dev.redrive.redrive.Proposal;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.mutiny.Uni;

/**
 * The name redrive proposes under after an outage ({@link Proposal#REDRIVE}) is no person's. An
 * approver reads a proposal by {@code redrive} (the console marks it "(by redrive)") as one no one
 * asked for, and four eyes folds names ({@link FourEyes}): a person called Redrive would pass for
 * redrive and could approve none of its proposals. The one owner of that rule, for every way in:
 * a configured user of that name, however spelt, stops start-up with a message naming the
 * property; any other identity of that name (a bearer JWT's upn, for the API, the console and
 * /mcp alike) is refused as unauthenticated (401) before any door reads its name ({@link Callers}).
 */
@ApplicationScoped
public class ReservedNames implements SecurityIdentityAugmentor {

    private static final Logger LOG = Logger.getLogger(ReservedNames.class);

    /** The embedded users, by name (README, "Operator console": users are configured so). */
    static final String USERS = "quarkus.security.users.embedded.users";

    /** Whether {@code name} is, or is a spelling of, the name redrive proposes under. */
    static boolean reserved(String name) {
        return FourEyes.samePerson(name, Proposal.REDRIVE);
    }

    /** With the configuration, before any request: a user named so never gets to log in. */
    void refuseConfiguredUsers(@Observes @Priority(1) StartupEvent event) {
        Map<String, String> users = ConfigProvider.getConfig().unwrap(SmallRyeConfig.class)
                .getOptionalValues(USERS, String.class, String.class).orElse(Map.of());
        try {
            refuse(users.keySet());
        } catch (InvalidConfigException e) {
            // One line an operator can act on, above the start-up failure's stack trace.
            LOG.error(e.getMessage());
            throw e;
        }
    }

    /** Refuses a user of the reserved name among {@code users} (their configured names), naming its property. */
    static void refuse(Collection<String> users) {
        for (String user : users) {
            if (reserved(user)) {
                throw new InvalidConfigException(USERS + "." + user, "names a user '" + user + "', which is the name "
                        + "redrive proposes under after an outage (README, \"After an outage\"): no person may use it, "
                        + "however spelt; give the user another name");
            }
        }
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (!identity.isAnonymous() && reserved(identity.getPrincipal().getName())) {
            LOG.warnf("refused a caller authenticated as '%s': that name is redrive's own (the proposer of the "
                    + "redrives it proposes after an outage); give the person another name at the identity provider",
                    LogText.of(identity.getPrincipal().getName()));
            return Uni.createFrom().failure(new AuthenticationFailedException("the name redrive is reserved"));
        }
        return Uni.createFrom().item(identity);
    }
}
