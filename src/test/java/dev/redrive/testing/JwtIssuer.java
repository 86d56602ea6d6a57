package dev.redrive.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.jwt.build.Jwt;

/**
 * A token issuer for tests: an RSA key pair made at start, the public half written where
 * redrive's JWT verification reads it, the private half signing tokens.
 */
public class JwtIssuer implements QuarkusTestResourceLifecycleManager {

    public static final String ISSUER = "https://issuer.redrive.test";
    private static KeyPair keys;

    @Override
    public Map<String, String> start() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            keys = generator.generateKeyPair();
            Path pem = Files.createTempFile("redrive-jwt-", ".pem");
            Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n"
                    + Base64.getMimeEncoder().encodeToString(keys.getPublic().getEncoded())
                    + "\n-----END PUBLIC KEY-----\n");
            return Map.of("mp.jwt.verify.publickey.location", pem.toString(), "mp.jwt.verify.issuer", ISSUER);
        } catch (NoSuchAlgorithmException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A token for {@code subject} with the given roles in its groups claim. */
    public static String token(String subject, String... roles) {
        return Jwt.issuer(ISSUER).upn(subject).groups(Set.of(roles)).expiresIn(300).sign(keys.getPrivate());
    }

    /** A token for {@code subject}, signed by the trusted key, that expired ten minutes ago (past any clock skew). */
    public static String expiredToken(String subject, String... roles) {
        long now = System.currentTimeMillis() / 1000;
        return Jwt.issuer(ISSUER).upn(subject).groups(Set.of(roles)).issuedAt(now - 3600).expiresAt(now - 600)
                .sign(keys.getPrivate());
    }

    /** A well-formed token signed by a key redrive does not trust. */
    public static String forgedToken(String subject, String... roles) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return Jwt.issuer(ISSUER).upn(subject).groups(Set.of(roles)).sign(generator.generateKeyPair().getPrivate());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
    }
}
