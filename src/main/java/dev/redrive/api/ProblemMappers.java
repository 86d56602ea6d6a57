package dev.redrive.api;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.redis.RedisProblems;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

/**
 * Turns every failure into an application/problem+json answer: refusals of the dead-letter code
 * by reason (in this one switch), bad JSON, JAX-RS' own errors, security, and a Redis that can't
 * serve (503 with Retry-After). Anything unforeseen is a 500 that names no internals; bad input
 * never gets there.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @Inject
    RedriveConfig config;

    @ServerExceptionMapper
    public Response refused(DeadLetterException e) {
        Problem problem = switch (e.reason()) {
            case UNKNOWN_STREAM -> Problem.of(404, "unknown-dead-letter-stream", "Unknown dead-letter stream", e.getMessage());
            case GONE -> Problem.of(404, "no-such-entry", "No such dead-letter entry", e.getMessage());
            case ORIGIN_NOT_ALLOWED -> Problem.of(422, "origin-not-allowed", "Origin stream not allowed", e.getMessage());
            case CROSS_SLOT -> Problem.of(409, "cross-slot", "Origin and dead-letter stream in different hash slots",
                    e.getMessage());
            case NO_SNAPSHOT -> Problem.of(409, "no-snapshot", "Nothing to replay", e.getMessage());
            case KEY_REUSED -> Problem.of(422, "idempotency-key-reused", "Idempotency-Key reused", e.getMessage());
            case BAD_KEY -> Problem.of(400, "ambiguous-request", "Ambiguous request", e.getMessage());
            case BAD_REASON -> Problem.of(400, "bad-request", "Bad request", e.getMessage());
            case WRONG_TYPE -> Problem.of(409, "wrong-key-type", "A key holds another type of value", e.getMessage());
            case NO_TASK -> Problem.of(404, "no-such-redrive", "No such redrive", e.getMessage());
            case NOT_A_DRY_RUN -> Problem.of(409, "not-a-dry-run", "Not a dry run", e.getMessage());
            case TASK_FINISHED -> Problem.of(409, "redrive-finished", "Redrive already finished", e.getMessage());
            case REDRIVE_RUNNING -> Problem.of(409, "redrive-running", "Another redrive of this stream runs", e.getMessage());
            case NOT_REPLICATED -> Problem.of(503, "not-replicated", "Written, but not confirmed by enough replicas",
                    e.getMessage());
            case NO_PROPOSAL -> Problem.of(404, "no-such-proposal", "No such redrive proposal", e.getMessage());
            case PROPOSAL_DECIDED -> Problem.of(409, "proposal-decided", "Proposal already decided", e.getMessage());
            case OWN_PROPOSAL -> Problem.of(403, "own-proposal", "Proposer may not decide", e.getMessage());
            case APPROVAL_REQUIRED -> Problem.of(403, "approval-required", "Propose instead", e.getMessage());
        };
        if (problem.status() == 503) {
            return Response.fromResponse(problem.response()).header("Retry-After", Long.toString(retryAfterSeconds())).build();
        }
        return problem.response();
    }

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return e.problem().response();
    }

    @ServerExceptionMapper
    public Response badJson(JsonProcessingException e) {
        return Problem.of(400, "malformed-json", "Body is not valid JSON", e.getOriginalMessage()).response();
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e) {
        return unauthenticated();
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e) {
        return unauthenticated();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return Problem.of(403, "forbidden", "Forbidden", "your roles do not allow this; see docs/API.md, Roles")
                .response();
    }

    @ServerExceptionMapper
    public Response http(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String title = Response.Status.fromStatusCode(status) == null ? "HTTP " + status
                : Response.Status.fromStatusCode(status).getReasonPhrase();
        if (status >= 500) {
            LOG.error("request failed", e);
        }
        return Problem.of(status, "http-" + status, title, e.getMessage()).response();
    }

    /**
     * Redis' error replies are not Exceptions, so this takes every Throwable: none may reach the
     * client as text. A Redis that can't serve now is a 503 the client may retry.
     */
    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (RedisProblems.refused(e)) {
            // Redis refuses redrive itself (user, password, permission, TLS): no retry of the client
            // helps until an operator changes the configuration, but it is Redis being unusable, not a bug.
            String hint = RedisProblems.hint(e);
            LOG.warnf("answered 503: Redis refuses redrive (%s): %s", e.getMessage(), hint);
            return Response.fromResponse(Problem.of(503, "redis-unavailable", "Redis unavailable",
                    "Redis refuses redrive's connection or command: " + hint + "; retry once that is fixed")
                    .response()).header("Retry-After", Long.toString(retryAfterSeconds())).build();
        }
        if (RedisFailures.unavailable(e)) {
            LOG.warnf("answered 503: Redis is down, full or slow (%s)", e);
            long seconds = retryAfterSeconds();
            return Response.fromResponse(Problem.of(503, "redis-unavailable", "Redis unavailable",
                    "Redis is down, out of memory or did not answer within " + config.redisTimeout()
                            + "; retry later. A change that timed out may still happen: check the entry or the audit "
                            + "trail before repeating it (a replay with an Idempotency-Key is safe to repeat)")
                    .response()).header("Retry-After", Long.toString(seconds)).build();
        }
        if (RedisFailures.wrongType(e)) {
            LOG.warnf("answered 409: a key holds another type of value than redrive keeps there (%s)", e.getMessage());
            return Problem.of(409, "wrong-key-type", "A key holds another type of value",
                    "a key of this dead-letter stream holds another type of value than redrive keeps there (" + e.getMessage()
                            + "); see RUNBOOK, \"A key of the wrong type\"").response();
        }
        LOG.error("request failed unexpectedly", e);
        return Problem.of(500, "internal", "Internal error", "the request failed on the server; see its log").response();
    }

    /**
     * The answer the API gives for {@code e}, for a caller that is not a JAX-RS method (the MCP
     * tools, which report the problem's text as a tool error).
     */
    public Response toResponse(Throwable e) {
        if (e instanceof DeadLetterException d) {
            return refused(d);
        } else if (e instanceof ProblemException p) {
            return problem(p);
        } else if (e instanceof JsonProcessingException j) {
            return badJson(j);
        } else if (e instanceof UnauthorizedException || e instanceof AuthenticationFailedException) {
            return unauthenticated();
        } else if (e instanceof ForbiddenException f) {
            return forbidden(f);
        } else if (e instanceof WebApplicationException w) {
            return http(w);
        }
        return unexpected(e);
    }

    private long retryAfterSeconds() {
        return Math.max(1, config.redisTimeout().toSeconds());
    }

    private static Response unauthenticated() {
        return Response.fromResponse(Problem.of(401, "unauthenticated", "Authentication required",
                "send credentials (HTTP Basic or a bearer token) of a user with a dlq-* role").response())
                .header("WWW-Authenticate", "Basic realm=\"redrive\"").build();
    }
}
