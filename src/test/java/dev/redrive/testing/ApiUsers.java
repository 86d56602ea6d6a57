package dev.redrive.testing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The users API tests log in with, configured the way production is (hashed, realm redrive):
 * viewer, operator, approver (a second operator, for four eyes) and automation, each with the password "<name>-pw".
 */
public final class ApiUsers {

    private ApiUsers() {
    }

    public static Map<String, String> config() {
        Map<String, String> c = new HashMap<>();
        user(c, "viewer", "dlq-viewer");
        user(c, "operator", "dlq-operator");
        user(c, "approver", "dlq-operator");
        user(c, "automation", "dlq-automation");
        return c;
    }

    public static String password(String user) {
        return user + "-pw";
    }

    private static void user(Map<String, String> c, String name, String role) {
        c.put("quarkus.security.users.embedded.users." + name, hash(name, password(name)));
        c.put("quarkus.security.users.embedded.roles." + name, role);
    }

    public static String hash(String user, String password) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((user + ":redrive:" + password).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
