package dev.redrive.testing;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.redrive.redis.LuaScripts;
import io.vertx.redis.client.Response;

/**
 * A script test class's own redis-server, started before the class's {@code @BeforeAll} methods
 * and stopped after its last test: {@code @RegisterExtension static final ScriptRedis redis = new
 * ScriptRedis();}, then {@code redis.call("XADD", ...)} or {@code redis.eval(script, keys, args)}.
 */
public final class ScriptRedis implements BeforeAllCallback, AfterAllCallback {

    private static final LuaScripts SCRIPTS = new LuaScripts();

    private RedisServer server;
    private RawRedis raw;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = new RedisServer().start();
        raw = new RawRedis(server);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        raw.close();
        server.close();
    }

    /** Sends a command as it is; its reply. */
    public Response call(Object... args) throws Exception {
        return raw.call(args);
    }

    /** Runs one of redrive's scripts, assembled as the service sends it, by EVAL; its reply. */
    public Response eval(LuaScripts.Script script, List<String> keys, List<?> args) throws Exception {
        List<Object> call = new ArrayList<>(List.of("EVAL", SCRIPTS.body(script), keys.size()));
        call.addAll(keys);
        call.addAll(args);
        return raw.call(call.toArray());
    }

    /** The ids pending in {@code group} of {@code stream}, in order (at most 100). */
    public List<String> pendingIds(String stream, String group) throws Exception {
        List<String> ids = new ArrayList<>();
        call("XPENDING", stream, group, "-", "+", "100").forEach(p -> ids.add(p.get(0).toString()));
        return ids;
    }

    /** {@code [id, owner, delivery count]} of one pending entry, as XPENDING tells it. */
    public String ownerAndCount(String stream, String group, String id) throws Exception {
        Response p = call("XPENDING", stream, group, id, id, "1").get(0);
        return "[" + p.get(0) + ", " + p.get(1) + ", " + p.get(3) + "]";
    }
}
