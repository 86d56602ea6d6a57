package dev.redrive.api;

import java.time.Duration;
import java.util.Base64;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

import dev.redrive.config.LoginsConfig;
import dev.redrive.config.RedriveConfig;
import dev.redrive.job.LogText;
import dev.redrive.time.Timers;
import io.quarkus.elytron.security.runtime.ElytronPasswordIdentityProvider;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

/**
 * Password guessing slowed down, for the console's form login and the API's Basic alike: every
 * user-and-password check goes through here first ({@link LoginFailures} counts, logs and
 * meters the failures, {@code redrive_login_failures_total{via}}), and a user or client address
 * that must still wait is refused before its password is checked: a Basic request, or a login
 * post from a waiting address, with 429 and {@code Retry-After} before authentication starts; a
 * console login of a waiting user (whose name is in the form's body) as a failed login. Bearer
 * tokens are not passwords and are not counted.
 */
@Startup // its counters are scraped at 0 before anyone logs in
@ApplicationScoped
public class ThrottledLogins implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    private static final Logger LOG = Logger.getLogger(ThrottledLogins.class);
    static final String FORM_POST = "/console/j_security_check";

    @Inject
    ElytronPasswordIdentityProvider passwords;

    @Inject
    RedriveConfig config;

    /** Its monotonic clock: a wall clock set back must stretch no lockout (tests step it). */
    @Inject
    Timers time;

    @Inject
    MeterRegistry meters;

    LoginFailures failures;
    private Counter viaForm;
    private Counter viaBasic;
    private long lastWarning;
    private long unlogged;

    @PostConstruct
    void init() {
        LoginsConfig c = config.logins();
        // Ranges are checked at start-up with the rest of the config (config/ConfigRanges).
        failures = new LoginFailures(time::elapsedNanos,
                new LoginFailures.Limits(c.freeFailures(), c.lockout(), c.maxLockout(), c.forgetAfter()),
                new LoginFailures.Limits(c.freeFailuresPerAddress(), c.lockout(), c.maxLockout(), c.forgetAfter()),
                c.tracked());
        viaForm = Counter.builder("redrive.login.failures").tag("via", "form")
                .description("Failed logins (wrong user or password), by way in").register(meters);
        viaBasic = Counter.builder("redrive.login.failures").tag("via", "basic")
                .description("Failed logins (wrong user or password), by way in").register(meters);
    }

    /** Forgets every count: what a restart does; tests call it after themselves. */
    void forget() {
        failures.clear();
    }

    void register(@Observes Filters filters) {
        // Before authentication (200): a waiting caller's password is not even checked.
        filters.register(this::refuseWhileWaiting, 350);
    }

    @Override
    public int priority() {
        // Ahead of the embedded users' provider (the default, 1001), which it asks itself.
        return SYSTEM_FIRST + 1000;
    }

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request, AuthenticationRequestContext context) {
        RoutingContext rc = HttpSecurityUtils.getRoutingContextAttribute(request);
        String user = request.getUsername();
        String address = address(rc);
        if (failures.wait(user, address).compareTo(Duration.ZERO) > 0) {
            return Uni.createFrom().failure(new AuthenticationFailedException("too many failed logins"));
        }
        boolean form = rc != null && rc.normalizedPath().equals(FORM_POST);
        return passwords.authenticate(request, context)
                .onItem().invoke(identity -> failures.succeeded(user))
                .onFailure(AuthenticationFailedException.class).invoke(e -> failed(user, address, form));
    }

    private void failed(String user, String address, boolean form) {
        Duration wait = failures.failed(user, address);
        (form ? viaForm : viaBasic).increment();
        warn(user, address, form, wait);
    }

    /** One WARN a second at most, whatever an attacker sends; the next one says how many it left out. */
    private synchronized void warn(String user, String address, boolean form, Duration wait) {
        long now = time.elapsedMillis();
        if (now - lastWarning < 1000) {
            unlogged++;
            return;
        }
        LOG.warnf("failed %s login for user '%s' from %s%s%s", form ? "console" : "Basic", printable(user), address,
                wait.isZero() ? "" : "; they wait " + wait.toMillis() + " ms before the next try (redrive.logins.*)",
                unlogged == 0 ? "" : " (" + unlogged + " more failed logins not logged)");
        lastWarning = now;
        unlogged = 0;
    }

    void refuseWhileWaiting(RoutingContext rc) {
        String user = basicUser(rc.request().getHeader(HttpHeaders.AUTHORIZATION));
        boolean formPost = rc.request().method() == HttpMethod.POST && rc.normalizedPath().equals(FORM_POST);
        Duration wait = user != null || formPost ? failures.wait(user, address(rc)) : Duration.ZERO;
        if (wait.isZero()) {
            rc.next();
            return;
        }
        long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
        rc.response().setStatusCode(429).putHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .end("{\"type\":\"/problems/too-many-failed-logins\",\"title\":\"Too many failed logins\",\"status\":429,"
                        + "\"detail\":\"too many failed logins for this user or from this address; try again in " + seconds
                        + " s\"}");
    }

    /** The user of a Basic Authorization header, or null when there is none (or it can't be read). */
    static String basicUser(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                    java.nio.charset.StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? null : decoded.substring(0, colon);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String address(RoutingContext rc) {
        return rc == null || rc.request().remoteAddress() == null ? "unknown" : rc.request().remoteAddress().hostAddress();
    }

    /** A user name as typed by anyone: cut, and no line breaks that could forge log lines. */
    private static String printable(String user) {
        return LogText.of(user, 64);
    }
}
