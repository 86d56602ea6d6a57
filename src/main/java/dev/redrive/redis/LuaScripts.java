package dev.redrive.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Runs the Lua scripts under {@code src/main/resources/lua} by SHA. The SHA is computed locally,
 * so nothing is loaded up front; a {@code NOSCRIPT} answer (first use, a restart, a failover, or
 * another cluster node) falls back to one EVAL of the body, which also caches it on that server.
 * A line {@code -- uses lib/<file>.lua} is replaced by that file, so scripts share helpers (Redis
 * has no include) and the shebang line, which must come first, stays first.
 */
@ApplicationScoped
public class LuaScripts {

    public enum Script {
        DEAD_LETTER("dead-letter.lua"),
        CLAIM("claim.lua"),
        FORGET_CONSUMERS("forget-consumers.lua"),
        REPLAY("replay.lua"),
        DISCARD("discard.lua"),
        REDRIVE_CLAIM("redrive-claim.lua"),
        REDRIVE_START("redrive-start.lua"),
        READ_ENTRIES("read-entries.lua"),
        READ_VALUE("read-value.lua");

        final String file;

        Script(String file) {
            this.file = file;
        }
    }

    private record Loaded(String body, String sha) {
    }

    private static final String USES = "-- uses ";

    private final Map<Script, Loaded> scripts = new EnumMap<>(Script.class);

    @Inject
    ReactiveRedisDataSource redis;

    public LuaScripts() {
        for (Script script : Script.values()) {
            String body = withLibraries(read(script.file));
            if (body != null) {
                scripts.put(script, new Loaded(body, sha1(body)));
            }
        }
    }

    /** The script as Redis runs it, its libraries in place: for tools that call it themselves (bench/). */
    public String body(Script script) {
        Loaded loaded = scripts.get(script);
        if (loaded == null) {
            throw new IllegalStateException("no script " + script.file);
        }
        return loaded.body;
    }

    /** Runs the script with the given keys (all in one hash slot) and string arguments. */
    public Uni<Response> run(Script script, List<String> keys, List<String> args) {
        Loaded loaded = scripts.get(script);
        if (loaded == null) {
            return Uni.createFrom().failure(new IllegalStateException("no script " + script.file));
        }
        return redis.execute("EVALSHA", command(loaded.sha, keys, args))
                .onFailure(LuaScripts::isNoScript)
                .recoverWithUni(() -> redis.execute("EVAL", command(loaded.body, keys, args)));
    }

    /**
     * Like {@link #run}, for arguments that may be any bytes (a patched payload need not be
     * UTF-8): they go to Redis as they are, through the client's own request type.
     */
    public Uni<Response> runBinary(Script script, List<String> keys, List<byte[]> args) {
        Loaded loaded = scripts.get(script);
        if (loaded == null) {
            return Uni.createFrom().failure(new IllegalStateException("no script " + script.file));
        }
        return redis.getRedis().send(binaryCommand(Command.EVALSHA, loaded.sha, keys, args))
                .onFailure(LuaScripts::isNoScript)
                .recoverWithUni(() -> redis.getRedis().send(binaryCommand(Command.EVAL, loaded.body, keys, args)));
    }

    private static Request binaryCommand(Command command, String first, List<String> keys, List<byte[]> args) {
        Request request = Request.cmd(command).arg(first).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }

    private static String[] command(String first, List<String> keys, List<String> args) {
        List<String> all = new ArrayList<>(2 + keys.size() + args.size());
        all.add(first);
        all.add(Integer.toString(keys.size()));
        all.addAll(keys);
        all.addAll(args);
        return all.toArray(String[]::new);
    }

    private static boolean isNoScript(Throwable e) {
        return e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT");
    }

    private static String withLibraries(String body) {
        if (body == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(body.length());
        for (String line : body.split("\n", -1)) {
            if (line.startsWith(USES)) {
                String lib = read(line.substring(USES.length()).trim());
                if (lib == null) {
                    throw new IllegalStateException("no Lua library " + line);
                }
                out.append(lib);
            } else {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    private static String read(String file) {
        try (InputStream in = LuaScripts.class.getResourceAsStream("/lua/" + file)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(body.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
