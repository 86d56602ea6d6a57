package dev.redrive.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.vertx.mutiny.redis.client.Response;

/**
 * Whether redrive's Redis user may run every command redrive sends, on every key it touches: asked
 * of Redis itself ({@code acl-check.lua}) at start-up, so a least-privilege user that lacks one is
 * refused with what is missing, instead of jobs failing one by one later. The commands are those
 * redrive's Java code and its scripts send (a script's commands are checked against the caller's
 * ACL as it runs); docs/REDIS.md gives the {@code ACL SETUSER} rule that grants exactly these.
 */
@ApplicationScoped
public class Permissions {

    /** Commands that take no key (TIME: the scripts read Redis' clock, lib/clock.lua). */
    private static final List<List<String>> KEYLESS = List.of(List.of("PING"), List.of("TIME"), List.of("CLIENT", "ID"),
            List.of("CLIENT", "UNBLOCK", "1"), List.of("EVALSHA", "0000000000000000000000000000000000000000", "0"),
            List.of("EVAL", "return 1", "0"));

    /** Commands on a key, K standing for it (a queue's stream, its dead-letter stream, and the keys of their slots). */
    private static final List<List<String>> ON_KEY = List.of(
            List.of("XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "K", ">"),
            List.of("XACK", "K", "g", "0-1"), List.of("XADD", "K", "*", "f", "v"),
            List.of("XCLAIM", "K", "g", "c", "0", "0-1"), List.of("XGROUP", "CREATE", "K", "g", "$"),
            List.of("XGROUP", "DELCONSUMER", "K", "g", "c"), List.of("XPENDING", "K", "g"),
            List.of("XRANGE", "K", "-", "+"), List.of("XREVRANGE", "K", "+", "-"), List.of("XINFO", "GROUPS", "K"),
            List.of("XINFO", "CONSUMERS", "K", "g"), List.of("XINFO", "STREAM", "K"), List.of("XLEN", "K"), List.of("XDEL", "K", "0-1"),
            List.of("XTRIM", "K", "MAXLEN", "0"), List.of("TYPE", "K"), List.of("EXISTS", "K"), List.of("GET", "K"),
            List.of("SET", "K", "v"), List.of("HSET", "K", "f", "v"), List.of("HGET", "K", "f"), List.of("HGETALL", "K"),
            List.of("HDEL", "K", "f"), List.of("HINCRBY", "K", "f", "1"), List.of("HLEN", "K"),
            List.of("HSETNX", "K", "f", "v"), List.of("PEXPIRE", "K", "1"), List.of("RPUSH", "K", "v"), List.of("LRANGE", "K", "0", "1"),
            List.of("ZADD", "K", "1", "m"), List.of("ZRANGE", "K", "0", "1"), List.of("ZRANGEBYSCORE", "K", "0", "1"),
            List.of("ZREM", "K", "m"), List.of("ZREMRANGEBYSCORE", "K", "0", "1"));

    @Inject
    LuaScripts scripts;

    /**
     * What the user may not run for these streams and their dead-letter streams, as "COMMAND key"
     * (empty when it may run everything); a NOPERM on the check itself names the command refused.
     */
    public List<String> refused(Collection<String> streams, Collection<String> deadLetters, Duration timeLimit) {
        Set<String> keys = new LinkedHashSet<>();
        streams.forEach(s -> {
            keys.add(s);
            keys.add(RedisKeys.notBefore(s));
        });
        deadLetters.forEach(d -> {
            keys.add(d);
            keys.add(RedisKeys.audit(d));
            keys.add(RedisKeys.redriveTask(d, "acl-check"));
        });
        keys.add(RedisKeys.consoleSessionEnded("acl-check"));
        keys.add(RedisKeys.mcpCalls());
        List<Check> checks = new ArrayList<>();
        KEYLESS.forEach(c -> checks.add(new Check(c.get(0).equals("CLIENT") ? c.get(0) + ' ' + c.get(1) : c.get(0), c)));
        for (String key : keys) {
            for (List<String> c : ON_KEY) {
                int k = c.indexOf("K");
                String name = k == 1 ? c.get(0) : c.get(0) + ' ' + c.get(1);
                checks.add(new Check(name + " on " + key, c.stream().map(w -> w.equals("K") ? key : w).toList()));
            }
        }
        Set<String> refused = new LinkedHashSet<>();
        // One call per queue's worth of checks: a thousand queues never make one long script.
        for (int from = 0; from < checks.size(); from += ON_KEY.size() * 5) {
            refused.addAll(check(checks.subList(from, Math.min(checks.size(), from + ON_KEY.size() * 5)), timeLimit));
        }
        // A key no command may touch is a missing key pattern: say so once, not once per command.
        for (String key : keys) {
            List<String> onKey = refused.stream().filter(r -> r.endsWith(" on " + key)).toList();
            if (onKey.size() == ON_KEY.size()) {
                Set<String> rest = new LinkedHashSet<>();
                for (String r : refused) {
                    rest.add(r.endsWith(" on " + key) ? "any command on " + key : r);
                }
                refused = rest;
            }
        }
        return List.copyOf(refused);
    }

    private record Check(String name, List<String> words) {
    }

    private List<String> check(List<Check> checks, Duration timeLimit) {
        List<String> args = new ArrayList<>();
        for (Check c : checks) {
            args.add(Integer.toString(c.words().size()));
            args.addAll(c.words());
        }
        try {
            Response reply = scripts.run(LuaScripts.Script.ACL_CHECK, List.of(), args).await().atMost(timeLimit);
            List<String> refused = new ArrayList<>();
            reply.forEach(r -> refused.add(checks.get(r.toInteger() - 1).name()));
            return refused;
        } catch (RuntimeException e) {
            if ("NOPERM".equals(RedisProblems.code(e.getMessage()))) {
                return List.of(String.valueOf(e.getMessage()));
            }
            throw RedisProblems.refused(e) ? new IllegalStateException(e.getMessage() + ": " + RedisProblems.hint(e), e) : e;
        }
    }
}
