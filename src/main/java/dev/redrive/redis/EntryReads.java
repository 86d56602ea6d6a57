package dev.redrive.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Reads of stream entries whose values are cut in Redis (read-entries.lua, list.lua) or come in
 * slices (read-value.lua), so a reply never carries more than the caller's byte limits, however
 * large the entries; and the counters beside a dead-letter stream. Replies come back as plain
 * Java values.
 */
@ApplicationScoped
public class EntryReads {

    /** An entry with every value cut short, and how many fields its byte limit left out. */
    public record CutEntry(String id, Map<String, CutValue> fields, int fieldsLeftOut) {
    }

    /** The first bytes of a value and its full length. */
    public record CutValue(byte[] bytes, long size) {
    }

    /** What read-entries.lua returned: the entries, and whether the page ended early on its byte budget. */
    public record Read(List<CutEntry> entries, boolean endedEarly) {
    }

    /** What list.lua returned: matching entries, the cursor to go on from (null at the end), and how many it examined. */
    public record Listed(List<CutEntry> items, String next, int examined) {
    }

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LuaScripts scripts;

    /**
     * Up to {@code count} entries from {@code start} towards {@code end} ({@code order} newest or
     * oldest), each value cut to {@code valueBytes} and each entry to {@code entryBytes}; the page
     * stops once it holds {@code pageBytes}.
     */
    public Uni<Read> read(String stream, String order, String start, String end, int count, int valueBytes,
            int entryBytes, int pageBytes) {
        return scripts.run(LuaScripts.Script.READ_ENTRIES, List.of(stream), List.of(order, start, end,
                Integer.toString(count), Integer.toString(valueBytes), Integer.toString(entryBytes),
                Integer.toString(pageBytes)))
                .map(reply -> {
                    Response flat = reply.get(1);
                    List<CutEntry> entries = new ArrayList<>(flat.size());
                    flat.forEach(entry -> entries.add(cutEntry(entry)));
                    return new Read(entries, reply.get(0).toInteger() == 1);
                });
    }

    /**
     * Runs list.lua: the entries matching {@code filterArgs} (lib/filter.lua's arguments), after
     * the cursor, examining at most {@code scanLimit} entries.
     */
    public Uni<Listed> list(String stream, List<String> filterArgs, boolean newestFirst, String after, int count,
            int scanLimit, int valueBytes, int entryBytes) {
        List<String> args = new ArrayList<>(filterArgs);
        args.addAll(List.of(newestFirst ? "newest" : "oldest", after == null ? "" : after, Integer.toString(count),
                Integer.toString(scanLimit), Integer.toString(valueBytes), Integer.toString(entryBytes)));
        return scripts.run(LuaScripts.Script.LIST, List.of(stream), args).map(reply -> {
            List<CutEntry> items = new ArrayList<>(reply.size() - 2);
            for (int i = 2; i < reply.size(); i++) {
                items.add(cutEntry(reply.get(i)));
            }
            String next = reply.get(0).toString();
            return new Listed(items, next.isEmpty() ? null : next, reply.get(1).toInteger());
        });
    }

    /** Runs read-value.lua: up to {@code max} bytes of one field of one entry, from byte {@code from}. */
    public Uni<ScriptReply> slice(String stream, String id, String field, long from, int max) {
        return scripts.call(LuaScripts.Script.READ_VALUE, List.of(stream),
                List.of(id, field, Long.toString(from), Integer.toString(max)));
    }

    /** The counters kept beside a dead-letter stream, field by field as stored. */
    public Uni<Map<String, String>> stats(String deadLetters) {
        return redis.hash(String.class, String.class, String.class).hgetall(RedisKeys.deadLetterStats(deadLetters));
    }

    /** An entry as the read scripts return it: { id, { name, value cut short, full length, ... }, left out }. */
    private static CutEntry cutEntry(Response entry) {
        Response flat = entry.get(1);
        Map<String, CutValue> fields = new LinkedHashMap<>();
        for (int i = 0; i + 2 < flat.size(); i += 3) {
            fields.put(flat.get(i).toString(), new CutValue(flat.get(i + 1).toBytes(), flat.get(i + 2).toLong()));
        }
        return new CutEntry(entry.get(0).toString(), fields, entry.get(2).toInteger());
    }
}
