package dev.redrive.deadletter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.redrive.job.Job;
import dev.redrive.job.ReservedField;
import dev.redrive.retry.FailureKind;


/**
 * The record's field names and the stats hash's fields are spelt once, in {@link RecordField} and
 * {@link StatsField}; the Lua scripts spell them again. This holds the two together: every script
 * under lua/ (whatever the files are called) is read, every name it uses must be a known one, and
 * the names only a script writes must be written by some script.
 */
class RecordSchemaTest {

    private static final Path LUA = Path.of("src/main/resources/lua");
    /** How the scripts read a field of a dead-letter record: {@code record['name']}. */
    private static final Pattern RECORD_READ = Pattern.compile("record\\[\\s*['\"]([^'\"]+)['\"]\\s*\\]");
    /** Script text by file, comments removed (a header may mention a field the code never uses). */
    private static Map<String, String> scripts;

    @BeforeAll
    static void readScripts() throws IOException {
        scripts = new TreeMap<>();
        try (Stream<Path> files = Files.walk(LUA)) {
            files.filter(p -> p.toString().endsWith(".lua")).forEach(p -> {
                try {
                    scripts.put(LUA.relativize(p).toString(), Files.readString(p).replaceAll("--[^\n]*", ""));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        assertTrue(scripts.size() > 3, "scripts found under " + LUA.toAbsolutePath() + ": " + scripts.keySet());
    }

    private static Set<String> quoted() {
        return quotedIn(String.join("\n", scripts.values()));
    }

    private static Set<String> quotedIn(String text) {
        Set<String> found = new TreeSet<>();
        Matcher m = Pattern.compile("'([^'\\n]*)'|\"([^\"\\n]*)\"").matcher(text);
        while (m.find()) {
            found.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        return found;
    }

    @Test
    void everyRecordFieldAScriptReadsIsAKnownField() {
        Set<String> unknown = new TreeSet<>();
        int reads = 0;
        for (var script : scripts.entrySet()) {
            Matcher m = RECORD_READ.matcher(script.getValue());
            while (m.find()) {
                reads++;
                if (RecordField.named(m.group(1)).isEmpty()) {
                    unknown.add(script.getKey() + ": " + m.group(1));
                }
            }
        }
        assertTrue(reads > 0, "the scripts read record fields as record['name']; none found");
        assertEquals(Set.of(), unknown, "record fields the scripts read that RecordField does not name");
    }

    /**
     * What the scripts must read by name: the filter's fields, where a replay goes and what it
     * carries. A script that reads a record under another variable name than {@code record} would
     * escape the check above; this fails first.
     */
    @Test
    void theScriptsReadTheFieldsTheFilterAndReplayNeed() {
        Set<RecordField> found = new TreeSet<>();
        scripts.values().forEach(text -> {
            Matcher m = RECORD_READ.matcher(text);
            while (m.find()) {
                RecordField.named(m.group(1)).ifPresent(found::add);
            }
        });
        Set<RecordField> needed = Set.of(RecordField.ORIGIN_STREAM, RecordField.ORIGIN_ID, RecordField.JOB,
                RecordField.FAILURE, RecordField.FINGERPRINT, RecordField.DEAD_AT, RecordField.REPLAYS,
                RecordField.SNAPSHOT, RecordField.SNAPSHOT_PACKED);
        assertEquals(new TreeSet<>(needed), found.stream().filter(needed::contains).collect(Collectors.toCollection(TreeSet::new)));
    }

    @Test
    void theScriptsWriteTheFieldsOnlyTheyWrite() {
        Set<String> quoted = quoted();
        List<String> wanted = new ArrayList<>();
        Arrays.stream(RecordField.values()).filter(RecordField::writtenByScript).forEach(f -> wanted.add(f.wireName()));
        wanted.addAll(List.of(RecordField.SNAPSHOT_PREFIX, RecordField.MISSING, RecordField.PACKED));
        assertEquals(List.of(), wanted.stream().filter(w -> !quoted.contains(w)).toList(),
                "names RecordField says a script writes, which no script under lua/ spells");
    }

    /** The libraries under lua/lib are read too: most of a replay's writes are spelt there. */
    @Test
    void theLibrariesAreReadWithTheScripts() {
        assertTrue(scripts.keySet().stream().anyMatch(name -> name.startsWith("lib" + java.io.File.separator)),
                "lua/lib/*.lua read: " + scripts.keySet());
    }

    /**
     * The fields a replay writes into the new entry for itself are spelt once, in
     * {@link ReservedField}. The scripts name them in one set (a producer's copies in the snapshot
     * are dropped), which must be exactly those; the scripts that write them write every one, and
     * every other field name they add to the new entry is one of {@link Job}'s (the idempotency key
     * a job had none of, the replay span's traceparent).
     */
    @Test
    void theReplayWritesTheReservedFieldsAndNoOther() {
        Pattern set = Pattern.compile("\\{\\s*(\\[\\s*'[^']+'\\s*\\]\\s*=\\s*true\\s*,?\\s*)+\\}");
        Pattern member = Pattern.compile("\\[\\s*'([^']+)'\\s*\\]");
        Pattern added = Pattern.compile("args\\[#args \\+ 1\\] = '([^']+)'|\\{ \\w+, '\\*', '([^']+)'");
        Set<String> reserved = Arrays.stream(ReservedField.values()).map(ReservedField::wireName)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> allowed = new TreeSet<>(reserved);
        allowed.addAll(List.of(Job.IDEMPOTENCY_KEY, Job.TRACEPARENT));
        List<Set<String>> sets = new ArrayList<>();
        Set<String> written = new TreeSet<>();
        for (var script : scripts.entrySet()) {
            Matcher m = set.matcher(script.getValue());
            while (m.find()) {
                Set<String> names = new TreeSet<>();
                Matcher n = member.matcher(m.group());
                while (n.find()) {
                    names.add(n.group(1));
                }
                if (names.contains(ReservedField.REPLAY_OF.wireName())) {
                    sets.add(names);
                }
            }
            Set<String> adds = new TreeSet<>();
            Matcher a = added.matcher(script.getValue());
            while (a.find()) {
                adds.add(a.group(1) != null ? a.group(1) : a.group(2));
            }
            if (adds.stream().anyMatch(reserved::contains)) {
                written.addAll(adds);
                adds.removeAll(allowed);
                assertEquals(Set.of(), adds, script.getKey() + ": fields a replay adds that neither ReservedField "
                        + "nor Job names");
            }
        }
        assertEquals(List.of(reserved), sets, "the one set of fields a replay drops from the snapshot");
        assertTrue(written.containsAll(reserved), "the scripts write every reserved field: " + written);
    }

    /**
     * The failure kinds are spelt once, in {@link FailureKind}: a script that tests a job's kind (or
     * a record's {@code failure}) against a name tests it against one of those. dead-letter.lua must
     * know {@code missing}: a trimmed job of any other kind is refused, to be parked again as missing.
     */
    @Test
    void theFailureKindsTheScriptsTestAreFailureKinds() {
        Pattern tested = Pattern.compile("(?:\\bkind|record\\[\\s*'failure'\\s*\\])\\s*[~=]=\\s*'([^']*)'");
        Set<String> found = new TreeSet<>();
        scripts.values().forEach(text -> {
            Matcher m = tested.matcher(text);
            while (m.find()) {
                found.add(m.group(1));
            }
        });
        assertTrue(found.contains(FailureKind.MISSING.wireName()), "dead-letter.lua tests for the kind missing: " + found);
        assertEquals(Set.of(), found.stream().filter(k -> FailureKind.named(k).isEmpty()).collect(Collectors.toSet()),
                "failure kinds the scripts test that FailureKind does not name");
    }

    @Test
    void theScriptsKeepEveryStatsFieldAndNoOther() {
        Set<String> quoted = quoted();
        for (StatsField f : StatsField.values()) {
            String spelt = f.keyed() ? f.kind() + StatsField.SEPARATOR : f.kind();
            assertTrue(quoted.contains(spelt), "no script under lua/ keeps the stats field '" + spelt + "'");
        }
        // Every prefix the scripts spell ('name:') is a stats field's, the snapshot's, or the audit
        // trail's copy of a record ('record:<field>', see discard.lua).
        Set<String> prefixes = quoted.stream().filter(q -> q.matches("[a-z][a-z-]*:")).collect(Collectors.toCollection(TreeSet::new));
        Set<String> known = Arrays.stream(StatsField.values()).filter(StatsField::keyed)
                .map(f -> f.kind() + StatsField.SEPARATOR).collect(Collectors.toCollection(TreeSet::new));
        known.add(RecordField.SNAPSHOT_PREFIX);
        known.add("record:");
        prefixes.removeAll(known);
        assertEquals(Set.of(), prefixes, "prefixes the scripts use that neither StatsField nor RecordField names");
    }

    /** A script that tests a prefix by offsets must use the prefix's own length. */
    @Test
    void prefixOffsetsInTheScriptsMatchThePrefixes() {
        Pattern head = Pattern.compile("string\\.sub\\((\\S+?), 1, (\\d+)\\) == '([^']*)'");
        Pattern rest = Pattern.compile("string\\.sub\\((\\S+?), (\\d+)\\)");
        Pattern bytes = Pattern.compile("string\\.byte\\((\\w+), 1\\) == (\\d+) and string\\.byte\\(\\1, 2\\) == (\\d+)");
        List<String> wrong = new ArrayList<>();
        for (var script : scripts.entrySet()) {
            List<String> lines = script.getValue().lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                Matcher h = head.matcher(lines.get(i));
                while (h.find()) {
                    int n = Integer.parseInt(h.group(2));
                    if (n != h.group(3).length()) {
                        wrong.add(script.getKey() + ":" + (i + 1) + " takes " + n + " bytes for '" + h.group(3) + "'");
                    }
                    // what follows the prefix, taken within the same test
                    for (int j = i; j < Math.min(i + 3, lines.size()); j++) {
                        Matcher r = rest.matcher(lines.get(j));
                        while (r.find()) {
                            if (r.group(1).equals(h.group(1)) && Integer.parseInt(r.group(2)) != n + 1) {
                                wrong.add(script.getKey() + ":" + (j + 1) + " cuts '" + h.group(3) + "' at " + r.group(2));
                            }
                        }
                    }
                }
                Matcher b = bytes.matcher(lines.get(i));
                while (b.find()) {
                    String spelt = "" + (char) Integer.parseInt(b.group(2)) + (char) Integer.parseInt(b.group(3));
                    if (!spelt.equals(RecordField.SNAPSHOT_PREFIX)) {
                        wrong.add(script.getKey() + ":" + (i + 1) + " tests for '" + spelt + "', not the snapshot prefix");
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theRecordWritesEveryFieldNotLeftToTheScriptInOrder() {
        DeadLetterRecord record = new DeadLetterRecord("orders", "1-0", "g", "c", "send", "exhausted", "E", "why",
                Fingerprint.of("E", "why"), 3, 3, Instant.EPOCH, null, Instant.EPOCH);
        List<String> pairs = record.pairs();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i += 2) {
            names.add(pairs.get(i));
        }
        assertEquals(Arrays.stream(RecordField.values()).filter(f -> !f.writtenByScript()).map(RecordField::wireName).toList(),
                names);
    }

    @Test
    void aStatsFieldSplitsAtItsFirstColon() {
        assertEquals(Optional.of(new StatsField.Parsed(StatsField.PARKED, null)), StatsField.parse("parked"));
        assertEquals(Optional.of(new StatsField.Parsed(StatsField.ORIGIN, "{jobs}:orders")),
                StatsField.parse("origin:{jobs}:orders"));
        assertEquals(Optional.of(new StatsField.Parsed(StatsField.FINGERPRINT_TEXT, "ab12")),
                StatsField.parse("fingerprint-text:ab12"));
        assertEquals(Optional.of(new StatsField.Parsed(StatsField.FINGERPRINT, "ab12")), StatsField.parse("fingerprint:ab12"));
        assertEquals(Optional.of(new StatsField.Parsed(StatsField.FAILURE, "")), StatsField.parse("failure:"));
        assertFalse(StatsField.parse("parked:x").isPresent());
        assertFalse(StatsField.parse("failure").isPresent());
        assertFalse(StatsField.parse("someone-elses:x").isPresent());
        assertEquals("failure:exhausted", StatsField.FAILURE.field("exhausted"));
    }
}
