package dev.redrive.deadletter;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.job.LogText;
import dev.redrive.redis.AuditTrail;
import io.smallrye.mutiny.Uni;

/**
 * An operator looking at fields that are masked by default ({@code redrive.console.redact-fields}):
 * the look is an act like a replay, recorded in the dead-letter stream's audit trail with who,
 * when, which entry and which fields, before the values are shown.
 */
@ApplicationScoped
public class Reveals {

    private static final Logger LOG = Logger.getLogger(Reveals.class);

    @Inject
    AuditTrail audit;

    @Inject
    DeadLetterReader reader;

    @Inject
    Clock clock;

    /** Records the reveal; returns the audit entry's id once it is written. */
    public Uni<String> record(String dlq, String id, List<String> fields, String actor) {
        reader.requireKnown(dlq);
        Map<String, String> line = new LinkedHashMap<>();
        line.put("action", "reveal");
        line.put("actor", actor);
        line.put("at", clock.instant().truncatedTo(ChronoUnit.MILLIS).toString());
        line.put("dlq", dlq);
        line.put("dlq-id", id);
        line.put("fields", String.join(",", fields));
        return audit.append(dlq, line).invoke(auditId -> LOG.infof("%s revealed %s of %s/%s", LogText.of(actor),
                LogText.of(fields), dlq, id));
    }
}
