package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each script's header is its contract (BullMQ style): it names every KEYS item, and the codes it
 * answers with. Java names the same things once, in {@link LuaScripts.Script} (which LuaScripts
 * checks every caller's keys against) and {@link ScriptReply.Code}; these tests keep the two
 * agreeing, and keep read-only scripts flagged so Redis may run them on a replica.
 */
class LuaScriptsTest {

    private static final Pattern KEYS = Pattern.compile("^-- KEYS\\[(\\d+)(\\.\\.)?\\](.*)$");
    private static final Pattern CODE = Pattern.compile("\\{ '([a-z][a-z-]*)'");
    private static final Pattern COMMAND = Pattern.compile("(?:redis\\.call|inSlices)\\('([A-Z]+)'");
    private static final Set<String> WRITES = Set.of("XADD", "XDEL", "XACK", "XCLAIM", "XGROUP", "XTRIM", "HSET",
            "HSETNX", "HDEL", "HINCRBY", "ZADD", "ZREM", "SET", "DEL", "RPUSH", "LPUSH", "EXPIRE", "PEXPIRE");

    private final LuaScripts scripts = new LuaScripts();

    @ParameterizedTest
    @EnumSource(LuaScripts.Script.class)
    void theHeaderNamesTheKeysItsCallersPass(LuaScripts.Script script) {
        Map<Integer, String> documented = new TreeMap<>();
        for (String line : header(script).split("\n")) {
            Matcher m = KEYS.matcher(line);
            if (m.matches()) {
                documented.put(Integer.parseInt(m.group(1)), m.group(2) != null ? "more" : m.group(3));
            }
        }
        for (int i = 1; i <= script.keys(); i++) {
            String text = documented.get(i);
            assertTrue(text != null && !text.equals("more") && !text.contains("optional"),
                    script.file() + " documents KEYS[" + i + "] as always passed: " + documented);
        }
        int last = script.moreKeys() ? script.keys() + 1 : script.keys();
        assertEquals(last, documented.keySet().stream().mapToInt(Integer::intValue).max().orElse(0),
                script.file() + ": KEYS documented " + documented);
        if (script.moreKeys()) {
            String more = documented.get(last);
            assertTrue(more.equals("more") || more.contains("optional"),
                    script.file() + " documents the keys after KEYS[" + script.keys() + "] as optional: " + more);
        }
    }

    @ParameterizedTest
    @EnumSource(LuaScripts.Script.class)
    void theCodesItReturnsAreNamedInItsHeaderAndInJava(LuaScripts.Script script) {
        // As Redis runs it: a library may build a reply its scripts return (lib/proposal.lua).
        String code = scripts.body(script).lines().filter(l -> !l.strip().startsWith("--")).collect(Collectors.joining("\n"));
        Set<String> returned = new TreeSet<>();
        Matcher m = CODE.matcher(code);
        while (m.find()) {
            returned.add(m.group(1));
        }
        Set<String> named = script.codes().stream().map(c -> c.wire).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(named, returned, script.file() + ": the codes in LuaScripts.Script are those the script returns");
        String header = header(script);
        for (String wire : named) {
            assertTrue(header.contains("'" + wire + "'"), script.file() + "'s header names '" + wire + "'");
        }
    }

    @ParameterizedTest
    @EnumSource(LuaScripts.Script.class)
    void aScriptThatWritesNothingIsFlaggedReadOnly(LuaScripts.Script script) {
        String body = scripts.body(script);
        Set<String> writes = new TreeSet<>();
        Matcher m = COMMAND.matcher(body.lines().filter(l -> !l.strip().startsWith("--"))
                .collect(Collectors.joining("\n")));
        while (m.find()) {
            if (WRITES.contains(m.group(1))) {
                writes.add(m.group(1));
            }
        }
        boolean flagged = body.startsWith("#!lua flags=no-writes\n");
        assertEquals(writes.isEmpty(), flagged, script.file() + " writes " + writes);
        assertFalse(body.lines().anyMatch(l -> l.startsWith("-- uses ")), script.file() + ": every library is in place");
    }

    /**
     * Every script opens with a {@code #!lua} line: Redis then refuses a call up front when it is
     * out of memory, rather than at a write half way through (it never rolls a script back).
     */
    @ParameterizedTest
    @EnumSource(LuaScripts.Script.class)
    void everyScriptIsRefusedWholeUnderOom(LuaScripts.Script script) {
        assertTrue(read(script.file()).startsWith("#!lua"), script.file() + " opens with #!lua");
    }

    /** A script, or a library, that a reader takes in at one sitting: the shared parts go to lua/lib/. */
    @Test
    void noLuaFileIsLongerThan160Lines() throws IOException {
        Path lua = Path.of("src/main/resources/lua");
        Map<String, Long> tooLong = new TreeMap<>();
        try (Stream<Path> files = Files.walk(lua)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".lua")).toList()) {
                long lines = Files.readAllLines(p).size();
                if (lines > 160) {
                    tooLong.put(lua.relativize(p).toString(), lines);
                }
            }
        }
        assertEquals(Map.of(), tooLong, "Lua files over 160 lines");
    }

    /** The comment lines the script file opens with. */
    private static String header(LuaScripts.Script script) {
        return read(script.file()).lines().takeWhile(l -> l.startsWith("--") || l.startsWith("#!"))
                .collect(Collectors.joining("\n"));
    }

    private static String read(String file) {
        try (InputStream in = LuaScripts.class.getResourceAsStream("/lua/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
