package dev.redrive.redis;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;

import io.vertx.core.Vertx;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.TrustOptions;

/**
 * The trust store and client certificate of redrive's Redis connections, as a trust manager and a
 * key manager that hand every handshake to the material loaded last. Quarkus builds its Redis
 * client once, with the TLS registry's stores of the time; a rotated certificate or CA reloaded by
 * the registry ({@code quarkus.tls.<name>.reload-period}) would reach no connection until a
 * restart. Put in place of the stores before any client is made ({@link RedisClientOptions}), they
 * make the pool, the blocking readers and every client copied from their options take reloaded
 * material from the next connection on; connections already open keep the session they have.
 */
final class ReloadedTls {

    private final AtomicReference<X509TrustManager> trust = new AtomicReference<>();
    private final AtomicReference<X509KeyManager> keys = new AtomicReference<>();
    /** The stores Quarkus configured, read when the first connection is made (Vert.x is up by then). */
    private TrustOptions configuredTrust;
    private KeyCertOptions configuredKeys;

    /** Puts this in place of the stores of {@code options}; nothing when it has none. */
    void install(NetClientOptions options) {
        if (options.getTrustOptions() != null) {
            configuredTrust = options.getTrustOptions();
            options.setTrustOptions(new TrustStore());
        }
        if (options.getKeyCertOptions() != null) {
            configuredKeys = options.getKeyCertOptions();
            options.setKeyCertOptions(new KeyStore());
        }
    }

    /**
     * Takes the stores the registry reloaded (either may be null: kept as it is); whether a CA or
     * client certificate differs from before (the registry reloads every period, changed or not).
     */
    boolean load(TrustOptions trustOptions, KeyCertOptions keyOptions, Vertx vertx) throws Exception {
        boolean changed = false;
        if (trustOptions != null) {
            X509TrustManager was = trust.getAndSet(only(X509TrustManager.class,
                    trustOptions.getTrustManagerFactory(vertx).getTrustManagers()));
            changed = was == null || !Arrays.equals(was.getAcceptedIssuers(), trust.get().getAcceptedIssuers());
        }
        if (keyOptions != null) {
            X509KeyManager was = keys.getAndSet(only(X509KeyManager.class,
                    keyOptions.getKeyManagerFactory(vertx).getKeyManagers()));
            changed |= was == null || !certificates(was).equals(certificates(keys.get()));
        }
        return changed;
    }

    /** The client certificates a key manager offers (RSA and EC keys). */
    private static List<X509Certificate> certificates(X509KeyManager keys) {
        List<X509Certificate> all = new ArrayList<>();
        for (String type : List.of("RSA", "EC")) {
            String[] aliases = keys.getClientAliases(type, null);
            for (String alias : aliases == null ? new String[0] : aliases) {
                X509Certificate[] chain = keys.getCertificateChain(alias);
                all.addAll(chain == null ? List.of() : Arrays.asList(chain));
            }
        }
        return all;
    }

    private synchronized void loadConfigured(Vertx vertx) throws Exception {
        load(trust.get() == null ? configuredTrust : null, keys.get() == null ? configuredKeys : null, vertx);
    }

    private static <T> T only(Class<T> type, Object[] managers) {
        for (Object m : managers) {
            if (type.isInstance(m)) {
                return type.cast(m);
            }
        }
        throw new IllegalStateException("the TLS configuration has no " + type.getSimpleName());
    }

    /** The trust store Vert.x asks for when it makes a client's SSL context: ours, loaded by then. */
    private final class TrustStore implements TrustOptions {
        @Override
        public TrustOptions copy() {
            return this; // every copy (the readers' options) follows the same reloads
        }

        @Override
        public TrustManagerFactory getTrustManagerFactory(Vertx vertx) throws Exception {
            loadConfigured(vertx);
            return TrustOptions.wrap(new Trust()).getTrustManagerFactory(vertx);
        }

        @Override
        public Function<String, TrustManager[]> trustManagerMapper(Vertx vertx) throws Exception {
            loadConfigured(vertx);
            return TrustOptions.wrap(new Trust()).trustManagerMapper(vertx);
        }
    }

    /** The client certificate, as {@link TrustStore}. */
    private final class KeyStore implements KeyCertOptions {
        @Override
        public KeyCertOptions copy() {
            return this;
        }

        @Override
        public KeyManagerFactory getKeyManagerFactory(Vertx vertx) throws Exception {
            loadConfigured(vertx);
            return KeyCertOptions.wrap(new Keys()).getKeyManagerFactory(vertx);
        }
    }

    /**
     * A plain X509TrustManager, not an extended one: the JDK then wraps it and checks the host name
     * and algorithm constraints itself, whatever kind of manager the registry's store gave.
     */
    private final class Trust implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            trust.get().checkClientTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            trust.get().checkServerTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return trust.get().getAcceptedIssuers();
        }
    }

    private final class Keys extends X509ExtendedKeyManager {
        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return keys.get().getClientAliases(keyType, issuers);
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return keys.get().chooseClientAlias(keyType, issuers, socket);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            X509KeyManager k = keys.get();
            return k instanceof X509ExtendedKeyManager x ? x.chooseEngineClientAlias(keyType, issuers, engine)
                    : k.chooseClientAlias(keyType, issuers, null);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return keys.get().getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return keys.get().chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            X509KeyManager k = keys.get();
            return k instanceof X509ExtendedKeyManager x ? x.chooseEngineServerAlias(keyType, issuers, engine)
                    : k.chooseServerAlias(keyType, issuers, null);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return keys.get().getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return keys.get().getPrivateKey(alias);
        }
    }
}
