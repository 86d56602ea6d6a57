package dev.redrive.redis;

import java.util.Set;

import javax.net.ssl.SSLException;

/**
 * What a failure to reach or use Redis means for an operator, said once: whether Redis refuses
 * redrive itself (the user, its password, its permissions, the TLS set-up; nothing heals that but
 * a change of configuration) and what to change. The readers' WARN, readiness and the API's 503
 * all say it with these words.
 */
public final class RedisProblems {

    /** Error replies by which Redis refuses this user: the first word of the error text. */
    private static final Set<String> REFUSED = Set.of("NOPERM", "NOAUTH", "WRONGPASS");

    private RedisProblems() {
    }

    /** Whether Redis refuses redrive's user or its TLS handshake failed: no retry helps until the configuration changes. */
    public static boolean refused(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof SSLException || REFUSED.contains(code(e.getMessage()))) {
                return true;
            }
        }
        return false;
    }

    /** What to fix, for a failure whose text is {@code message}: one sentence naming the setting. */
    public static String hint(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof SSLException) {
                return "the TLS handshake failed: check the trust store and client certificate of the TLS configuration"
                        + " (quarkus.redis.tls-configuration-name, quarkus.tls.*) and that Redis' certificate names the host"
                        + " redrive connects to";
            }
        }
        String message = String.valueOf(failure.getMessage());
        return switch (code(message)) {
            case "NOAUTH", "WRONGPASS" -> "Redis refuses redrive's user or password: check the user and password of"
                    + " REDIS_URL (redis://user:password@host:port) or quarkus.redis.password";
            case "NOPERM" -> "redrive's Redis user lacks a permission: grant the ACL rule of docs/REDIS.md";
            case "READONLY" -> "this Redis is a replica: point quarkus.redis.hosts at the primary, or use Sentinel"
                    + " (quarkus.redis.client-type=sentinel)";
            default -> message.contains("unknown command")
                    ? "this is not a Redis primary (a sentinel?): set quarkus.redis.client-type=sentinel and"
                            + " quarkus.redis.master-name"
                    : "check that Redis runs and is reachable at quarkus.redis.hosts (rediss:// if it speaks only TLS)";
        };
    }

    /** The first word of a Redis error text: its code ("NOPERM", "OOM", ...). */
    public static String code(String message) {
        if (message == null) {
            return "";
        }
        int space = message.indexOf(' ');
        return space < 0 ? message : message.substring(0, space);
    }
}
