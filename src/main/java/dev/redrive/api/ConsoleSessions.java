package dev.redrive.api;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.redrive.config.RedriveConfig;
import dev.redrive.redis.EndedSessions;
import dev.redrive.redis.RedisKeys;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;

/**
 * Console sessions that logout ends on the server. Quarkus' form session is an encrypted cookie
 * that holds the user and its own expiry and nothing on the server, so a copy of it (leaked,
 * copied from a shared machine) kept working after logout for as long as it was used. Beside it,
 * each login gets a session id in a second cookie, signed with the user's name (HMAC, keyed from
 * quarkus.http.auth.session.encryption-key, as the form cookie is), and every console request
 * must carry the id of its user that no logout has ended. Logout writes the id into Redis
 * ({@link RedisKeys#consoleSessionEnded}) for twice the form timeout, counted again each time a copy
 * of its cookies is presented (the form mechanism refreshes the form cookie of a request it
 * authenticates, before this check refuses it): the mark outlives every copy still in use. A request whose session is
 * missing, forged or ended is sent to the login page, its cookies dropped, before it reaches a page or an action.
 */
@ApplicationScoped
public class ConsoleSessions implements SecurityIdentityAugmentor {

    public static final String COOKIE = "redrive-console-session";
    /** The console's paths (console/ConsoleUrls.ROOT, which this package can't import). */
    static final String ROOT = "/console";

    private final SecureRandom random = new SecureRandom();
    private final byte[] key;

    @Inject
    EndedSessions sessions;

    @Inject
    RedriveConfig config;

    @ConfigProperty(name = "quarkus.http.auth.form.timeout")
    Duration timeout;

    @ConfigProperty(name = "quarkus.http.auth.form.cookie-name")
    String formCookie;

    @Inject
    SecurityIdentity identity;

    ConsoleSessions(@ConfigProperty(name = "quarkus.http.auth.session.encryption-key") Optional<String> secret) {
        // Without a configured key Quarkus makes one per process, and sessions end with it: so do these.
        byte[] seed = secret.map(s -> s.getBytes(StandardCharsets.UTF_8)).orElseGet(() -> {
            byte[] b = new byte[32];
            new SecureRandom().nextBytes(b);
            return b;
        });
        this.key = hmac(seed, "redrive console session".getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        return Uni.createFrom().item(identity);
    }

    /** At the login post: the new session's id, beside the cookie the form mechanism sets. */
    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context,
            Map<String, Object> attributes) {
        RoutingContext rc = HttpSecurityUtils.getRoutingContextAttribute(attributes);
        if (rc != null && !identity.isAnonymous() && rc.normalizedPath().equals(ThrottledLogins.FORM_POST)) {
            begin(rc, identity.getPrincipal().getName());
        }
        return Uni.createFrom().item(identity);
    }

    /**
     * Before every console page and action (after authentication): the request's session is its
     * user's and no logout ended it, or it is sent to the login page with its cookies dropped.
     */
    @ServerRequestFilter
    public Uni<Response> requireLiveSession(ContainerRequestContext request) {
        if (!under("/" + request.getUriInfo().getPath().replaceFirst("^/", "")) || identity.isAnonymous()) {
            return Uni.createFrom().nullItem();
        }
        Cookie cookie = request.getCookies().get(COOKIE);
        String id = sessionOf(cookie == null ? null : cookie.getValue(), identity.getPrincipal().getName());
        if (id == null) {
            return Uni.createFrom().item(toLogin());
        }
        return sessions.ended(id, timeout.multipliedBy(2)).ifNoItem().after(config.redisTimeout()).fail()
                .map(ended -> ended ? toLogin() : null);
    }

    private Response toLogin() {
        return Response.status(Response.Status.FOUND).location(URI.create(ROOT + "/login"))
                .cookie(gone(formCookie), gone(COOKIE)).build();
    }

    private static boolean under(String path) {
        return path.equals(ROOT) || path.startsWith(ROOT + "/");
    }

    private static NewCookie gone(String name) {
        return new NewCookie.Builder(name).path(ROOT).value("").maxAge(0).httpOnly(true).build();
    }

    /** Ends the session the request carries (its cookie's value): no copy of its cookies opens the console again. */
    public Uni<Void> end(String cookie) {
        String id = cookie == null ? null : cookie.substring(0, Math.max(0, cookie.indexOf('.')));
        if (id == null || id.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return sessions.end(id, timeout.multipliedBy(2)).ifNoItem().after(config.redisTimeout()).fail();
    }

    private void begin(RoutingContext rc, String user) {
        byte[] raw = new byte[16];
        random.nextBytes(raw);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        rc.response().addCookie(io.vertx.core.http.Cookie.cookie(COOKIE, id + "." + signature(id, user)).setPath(ROOT)
                .setHttpOnly(true).setSameSite(CookieSameSite.STRICT).setSecure(rc.request().isSSL()));
    }

    /** The session id the cookie's value holds for {@code user}, or null when it holds none of theirs. */
    private String sessionOf(String value, String user) {
        if (value == null) {
            return null;
        }
        int dot = value.indexOf('.');
        if (dot <= 0) {
            return null;
        }
        String id = value.substring(0, dot);
        byte[] expected = signature(id, user).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, value.substring(dot + 1).getBytes(StandardCharsets.US_ASCII)) ? id : null;
    }

    private String signature(String id, String user) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(hmac(key, (id + '\n' + user).getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
