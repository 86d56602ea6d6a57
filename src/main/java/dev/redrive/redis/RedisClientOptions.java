package dev.redrive.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.quarkus.tls.CertificateUpdatedEvent;
import io.vertx.core.Vertx;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;

/**
 * The one place redrive's Redis connection settings come from: the options Quarkus built for its
 * default client out of {@code quarkus.redis.*} and the TLS registry ({@code quarkus.tls.*}: trust
 * store, client certificate, hostname verification), the user and password of the URL, Sentinel's
 * master name. Every client redrive opens besides the pool (the blocking readers, their per-node
 * clients on a cluster) starts from a copy of them, so a setting made for the pool can't be
 * missing on a connection that blocks: before, the readers built their own options and a TLS-only
 * Redis left every quiet queue unread.
 */
@ApplicationScoped
public class RedisClientOptions implements RedisOptionsCustomizer {

    /** Quarkus' name for the unnamed client (VertxRedisClientFactory.DEFAULT_CLIENT). */
    private static final String DEFAULT_CLIENT = "<default>";

    /** The TLS registry's name for its unnamed configuration (TlsConfig.DEFAULT_NAME). */
    private static final String DEFAULT_TLS = "<default>";

    private static final Logger LOG = Logger.getLogger(RedisClientOptions.class);

    private volatile RedisOptions configured;
    private final ReloadedTls tls = new ReloadedTls();

    /** Looked up when a reload comes: Quarkus calls {@link #customize} before Vert.x is up. */
    @Inject
    Instance<Vertx> vertx;

    @ConfigProperty(name = "quarkus.redis.tls-configuration-name")
    Optional<String> tlsConfiguration;

    /**
     * Called by Quarkus when it creates its clients at start-up, before any reader connects. The
     * trust store and client certificate are put behind {@link ReloadedTls}, so the pool and every
     * reader copied from these options take what the registry reloads.
     */
    @Override
    public void customize(String clientName, RedisOptions options) {
        if (DEFAULT_CLIENT.equals(clientName)) {
            tls.install(options.getNetClientOptions());
            configured = new RedisOptions(options);
        }
    }

    /**
     * A rotated certificate or CA, reloaded by the TLS registry ({@code quarkus.tls.<name>.reload-period}):
     * every connection opened from now on uses it, without a restart.
     */
    void reloaded(@Observes CertificateUpdatedEvent event) {
        if (!event.name().equals(tlsConfiguration.orElse(DEFAULT_TLS))) {
            return;
        }
        try {
            if (tls.load(event.tlsConfiguration().getTrustStoreOptions(), event.tlsConfiguration().getKeyStoreOptions(),
                    vertx.get())) {
                LOG.infof("reloaded the Redis TLS configuration %s (quarkus.tls.%s.*): a CA or client certificate changed;"
                        + " new connections to Redis use it", event.name(), event.name());
            }
        } catch (Exception e) {
            LOG.errorf(e, "could not take the reloaded Redis TLS configuration %s; connections keep the one loaded before",
                    event.name());
        }
    }

    /**
     * The pool's options for a client of the readers: at {@code node} ("host:port", where a
     * cluster's MOVED sent a reader) as a plain connection to that node, or, for null, the
     * configured topology itself (a single Redis, or Sentinel, whose client asks the sentinels
     * where the primary is on every connect).
     */
    public RedisOptions forClient(String node, int maxPoolSize) {
        RedisOptions base = configured;
        if (base == null) {
            throw new IllegalStateException("Quarkus created no default Redis client (quarkus.redis.hosts)");
        }
        RedisOptions options = new RedisOptions(base).setMaxPoolSize(maxPoolSize).setMaxPoolWaiting(maxPoolSize);
        if (node != null) {
            options.setType(RedisClientType.STANDALONE).setEndpoints(List.of(address(base.getEndpoint(), node)));
        } else if (base.getType() == RedisClientType.CLUSTER) {
            // A reader names streams of one slot; it starts at the first node and follows MOVED.
            options.setType(RedisClientType.STANDALONE).setEndpoints(List.of(base.getEndpoint()));
        }
        return options;
    }

    /** The configured addresses ({@code quarkus.redis.hosts}) as "host:port", in their order. */
    public List<String> nodes() {
        RedisOptions base = configured;
        if (base == null) {
            throw new IllegalStateException("Quarkus created no default Redis client (quarkus.redis.hosts)");
        }
        return base.getEndpoints().stream().map(RedisClientOptions::node).toList();
    }

    /** "host:port" of an endpoint URL (6379 when it names no port). */
    static String node(String endpoint) {
        URI uri = URI.create(endpoint);
        return uri.getHost() + ':' + (uri.getPort() < 0 ? 6379 : uri.getPort());
    }

    /** {@code endpoint} (a URL with scheme, user, password, database) with its host and port set to {@code node}'s. */
    static String address(String endpoint, String node) {
        try {
            URI uri = new URI(endpoint);
            String user = uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo() + '@';
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            String query = uri.getRawQuery() == null ? "" : '?' + uri.getRawQuery();
            return uri.getScheme() + "://" + user + node + path + query;
        } catch (URISyntaxException e) {
            throw new IllegalStateException("can't reach node " + node + " of " + endpoint, e);
        }
    }
}
