package dev.redrive.redis;

import static dev.redrive.redis.ScriptReply.Code.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
 * A line {@code -- uses lib/<file>.lua} is replaced by that file (once per script, however many
 * files use it; a library may use another), so scripts share helpers (Redis has no include) and
 * the shebang line, which must come first, stays first. The SHA covers the result.
 */
@ApplicationScoped
public class LuaScripts {

    /**
     * One script per atomic transition, with the KEYS it takes (as its header documents them) and
     * the codes it answers with ({@link ScriptReply}; none for a script whose reply is data).
     */
    public enum Script {
        DEAD_LETTER("dead-letter.lua", 6, MORE_KEYS, PARKED, NOT_PENDING, TRIMMED, WRONG_TYPE),
        CLAIM("claim.lua", 2, FIXED_KEYS),
        TRANSFER("transfer.lua", 2, FIXED_KEYS),
        FIGURES("figures.lua", 0, MORE_KEYS),
        ACL_CHECK("acl-check.lua", 0, FIXED_KEYS),
        FORGET_CONSUMERS("forget-consumers.lua", 1, FIXED_KEYS),
        REPLAY("replay.lua", 6, MORE_KEYS, REPLAYED, AGAIN, KEY_REUSED, GONE, NO_SNAPSHOT, UNREADABLE, NOT_WRITABLE,
                WRONG_TYPE),
        LIST("list.lua", 1, FIXED_KEYS),
        REDRIVE_COUNT("redrive-count.lua", 2, FIXED_KEYS, OK, STOPPED),
        REDRIVE_STEP("redrive-step.lua", 7, MORE_KEYS, OK, STOPPED),
        DISCARD("discard.lua", 3, FIXED_KEYS, DISCARDED, GONE, WRONG_TYPE),
        REDRIVE_CLAIM("redrive-claim.lua", 2, FIXED_KEYS),
        REDRIVE_START("redrive-start.lua", 5, FIXED_KEYS, STARTED, RUNNING, CHANGED, WRONG_TYPE),
        REDRIVE_MOVE("redrive-move.lua", 2, FIXED_KEYS, MOVED, CHANGED),
        READ_ENTRIES("read-entries.lua", 1, FIXED_KEYS),
        REDRIVE_PREVIEW("redrive-preview.lua", 1, FIXED_KEYS),
        READ_VALUE("read-value.lua", 1, FIXED_KEYS, VALUE, GONE, NO_FIELD),
        PROPOSAL_CREATE("proposal-create.lua", 4, FIXED_KEYS, CREATED, WRONG_TYPE),
        OUTAGE_PROPOSE("outage-propose.lua", 5, FIXED_KEYS, CREATED, PROPOSED_BEFORE, WRONG_TYPE),
        PROPOSAL_APPROVE("proposal-approve.lua", 7, FIXED_KEYS, APPROVED, GONE, DECIDED, EXPIRED, OWN, RUNNING, CHANGED,
                WRONG_TYPE),
        PROPOSAL_REJECT("proposal-reject.lua", 3, FIXED_KEYS, REJECTED, GONE, DECIDED, EXPIRED, OWN, WRONG_TYPE);

        final String file;
        /** KEYS[1..keys] always; more after them only when {@link #moreKeys}. */
        final int keys;
        final boolean moreKeys;
        final Set<ScriptReply.Code> codes;

        Script(String file, int keys, boolean moreKeys, ScriptReply.Code... codes) {
            this.file = file;
            this.keys = keys;
            this.moreKeys = moreKeys;
            this.codes = codes.length == 0 ? Set.of() : EnumSet.copyOf(Arrays.asList(codes));
        }

        public String file() {
            return file;
        }

        public int keys() {
            return keys;
        }

        public boolean moreKeys() {
            return moreKeys;
        }

        public Set<ScriptReply.Code> codes() {
            return codes;
        }
    }

    private static final boolean FIXED_KEYS = false;
    private static final boolean MORE_KEYS = true;

    private record Loaded(String body, String sha) {
    }

    private static final String USES = "-- uses ";

    private final Map<Script, Loaded> scripts = new EnumMap<>(Script.class);
    private final ScriptRefusal refusal = new ScriptRefusal();

    @Inject
    ReactiveRedisDataSource redis;

    public LuaScripts() {
        for (Script script : Script.values()) {
            String body = withLibraries(read(script.file), new HashSet<>());
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
        RuntimeException unfit = unfit(script, loaded, keys);
        if (unfit != null) {
            return Uni.createFrom().failure(unfit);
        }
        return noted(redis.execute("EVALSHA", command(loaded.sha, keys, args))
                .onFailure(LuaScripts::isNoScript)
                .recoverWithUni(() -> redis.execute("EVAL", command(loaded.body, keys, args))));
    }

    /**
     * Like {@link #run}, for arguments that may be any bytes (a patched payload need not be
     * UTF-8): they go to Redis as they are, through the client's own request type.
     */
    public Uni<Response> runBinary(Script script, List<String> keys, List<byte[]> args) {
        Loaded loaded = scripts.get(script);
        RuntimeException unfit = unfit(script, loaded, keys);
        if (unfit != null) {
            return Uni.createFrom().failure(unfit);
        }
        return noted(redis.getRedis().send(binaryCommand(Command.EVALSHA, loaded.sha, keys, args))
                .onFailure(LuaScripts::isNoScript)
                .recoverWithUni(() -> redis.getRedis().send(binaryCommand(Command.EVAL, loaded.body, keys, args))));
    }

    /**
     * Runs the script, then {@code after}, in one batch: on one connection and in this order, as
     * WAIT needs (it counts the replicas that have the writes of its own connection).
     */
    Uni<List<Response>> runBinaryThen(Script script, List<String> keys, List<byte[]> args, Request after) {
        Loaded loaded = scripts.get(script);
        RuntimeException unfit = unfit(script, loaded, keys);
        if (unfit != null) {
            return Uni.createFrom().failure(unfit);
        }
        return noted(redis.getRedis().batch(List.of(binaryCommand(Command.EVALSHA, loaded.sha, keys, args), after))
                .onFailure(LuaScripts::isNoScriptInBatch)
                .recoverWithUni(() -> redis.getRedis().batch(List.of(binaryCommand(Command.EVAL, loaded.body, keys, args), after))));
    }

    /**
     * While Redis refuses redrive's scripts (NOPERM since the last script that ran): what it
     * refuses and what to grant, for readiness.
     */
    public Optional<String> refusal() {
        return refusal.current();
    }

    /** A script's answer, told to {@link ScriptRefusal}: the one place every script's outcome passes. */
    private <T> Uni<T> noted(Uni<T> answer) {
        return answer.onItemOrFailure().invoke((item, failure) -> refusal.answered(failure));
    }

    /** Runs a script that answers with a code ({@link ScriptReply}), and names the code. */
    public Uni<ScriptReply> call(Script script, List<String> keys, List<String> args) {
        return run(script, keys, args).map(reply -> ScriptReply.of(script, reply));
    }

    /** {@link #call} with arguments that may be any bytes, as {@link #runBinary}. */
    public Uni<ScriptReply> callBinary(Script script, List<String> keys, List<byte[]> args) {
        return runBinary(script, keys, args).map(reply -> ScriptReply.of(script, reply));
    }

    /**
     * Why the call can't run, or null: a missing script, or other KEYS than its header names (a
     * caller's bug, found at its first call rather than as a script reading the wrong key).
     */
    private static RuntimeException unfit(Script script, Loaded loaded, List<String> keys) {
        if (loaded == null) {
            return new IllegalStateException("no script " + script.file);
        }
        if (keys.size() < script.keys || (!script.moreKeys && keys.size() > script.keys)) {
            return new IllegalArgumentException(script.file + " takes " + (script.moreKeys ? "at least " : "")
                    + script.keys + " keys, not " + keys.size());
        }
        return null;
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

    /** A batch's failure names the failed command's place: {@code ERR [0] NOSCRIPT ...}. */
    private static boolean isNoScriptInBatch(Throwable e) {
        return e.getMessage() != null && e.getMessage().startsWith("ERR [0] NOSCRIPT");
    }

    private static String withLibraries(String body, Set<String> included) {
        if (body == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(body.length());
        for (String line : body.split("\n", -1)) {
            if (line.startsWith(USES)) {
                String file = line.substring(USES.length()).trim();
                if (!included.add(file)) {
                    continue;
                }
                String lib = withLibraries(read(file), included);
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
