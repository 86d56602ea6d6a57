package dev.redrive.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Waits for new entries on many streams of one consumer group at once: one {@code XREADGROUP
 * ... BLOCK ... STREAMS s1 s2 ...} on a connection of its own, never one of the shared pool, so
 * a thousand quiet queues hold one connection and acks, claims and scripts never wait behind a
 * blocked read. A queue joins only once a plain (non-blocking) read found its stream empty and
 * leaves as soon as the read brings it entries: busy queues read on the pool, quiet ones wait here.
 * <p>
 * A read already blocked does not see a stream that joins after it was sent, so the join wakes it
 * with {@code CLIENT UNBLOCK} (from another connection: this one is blocked) and the next read
 * names every waiting stream. Streams of one read must share a hash slot on Redis Cluster:
 * {@link BlockingReads} gives each (group, slot) its own reader, and a reader follows a
 * {@code MOVED} answer to the node that serves its slot. Any other failure makes it forget that
 * node and ask the next configured one: after a failover the slot's node is another one, and only
 * a node that answers can say which.
 * <p>
 * Every member waits for exactly one answer: its entries, or an empty list when it left (or the
 * reader closed). While Redis can't be reached the reader keeps its members and tries again.
 */
public final class BlockingReader {

    private static final Logger LOG = Logger.getLogger(BlockingReader.class);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);

    private record Member(int count, Duration block, Consumer<List<StreamAccess.Entry>> answer) {
    }

    private final BlockingReads connections;
    private final String group;
    private final String consumer;
    private final Duration timeLimit;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Map<String, Member> leaving = new HashMap<>();
    private Set<String> inRead = Set.of();
    private RedisConnection connection;
    private long clientId = -1;
    /** The node this reader talks to: null for the configured address, else where MOVED sent it. */
    private String node;
    /** Which configured node a cluster reader that knows no node asks ({@link BlockingReads#seed}). */
    private int seed;
    /** Where the open connection goes (null: the configured address): the node its CLIENT ID counts on. */
    private String connectedTo;
    private boolean reading;
    private boolean woken;
    private boolean closed;
    private boolean failing;
    /** Why the last read or connect failed, while it fails; null once a read works again. */
    private Throwable failure;

    BlockingReader(BlockingReads connections, String group, String consumer, Duration timeLimit) {
        this.connections = connections;
        this.group = group;
        this.consumer = consumer;
        this.timeLimit = timeLimit;
    }

    /**
     * Waits for up to {@code count} new entries of {@code stream}; {@code answer} gets them (or an
     * empty list once the stream leaves). One wait per stream at a time.
     */
    public void join(String stream, int count, Duration block, Consumer<List<StreamAccess.Entry>> answer) {
        boolean wake;
        synchronized (this) {
            if (closed) {
                wake = false;
            } else {
                members.put(stream, new Member(count, block, answer));
                wake = reading && !inRead.contains(stream) && !woken;
                woken |= wake;
            }
        }
        if (closed) {
            answer.accept(List.of());
            return;
        }
        if (wake) {
            wake();
        }
        loop();
    }

    /** Ends the stream's wait: at once when no read names it, else once the woken read returns. */
    public void leave(String stream) {
        Member gone;
        boolean wake = false;
        synchronized (this) {
            gone = members.remove(stream);
            if (gone != null && reading && inRead.contains(stream)) {
                leaving.put(stream, gone);
                gone = null;
                wake = !woken;
                woken = true;
            }
        }
        if (gone != null) {
            gone.answer().accept(List.of());
        }
        if (wake) {
            wake();
        }
    }

    /** Why this reader can't read, and the streams whose new entries wait meanwhile; empty while it reads. */
    synchronized Optional<BlockingReads.Failing> failing() {
        // A reader no stream waits on keeps nothing unread (the warm-up's, once its stream left).
        if (failure == null || closed || members.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new BlockingReads.Failing(group, List.copyOf(members.keySet()),
                failure.getMessage() + " (" + RedisProblems.hint(failure) + ")"));
    }

    /** Answers every member with nothing and closes the connection. */
    void close() {
        List<Member> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(members.values());
            all.addAll(leaving.values());
            members.clear();
            leaving.clear();
            dropConnection();
        }
        all.forEach(m -> m.answer().accept(List.of()));
    }

    private void wake() {
        long id;
        String at;
        synchronized (this) {
            id = clientId;
            at = connectedTo;
        }
        if (id >= 0) {
            connections.unblock(at, id, timeLimit);
        }
    }

    private void loop() {
        List<String> streams;
        int count = Integer.MAX_VALUE;
        long block = 0;
        synchronized (this) {
            if (closed || reading || members.isEmpty()) {
                return;
            }
            reading = true;
            woken = false;
            streams = List.copyOf(members.keySet());
            inRead = Set.copyOf(streams);
            for (Member m : members.values()) {
                count = Math.min(count, m.count());
                block = Math.max(block, m.block().toMillis());
            }
        }
        Request read = Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg(consumer).arg("COUNT").arg(count)
                .arg("BLOCK").arg(Math.max(1, block)).arg("STREAMS");
        streams.forEach(read::arg);
        streams.forEach(s -> read.arg(">"));
        Duration limit = Duration.ofMillis(block).plus(timeLimit);
        connection().flatMap(c -> c.send(read)).ifNoItem().after(limit).fail()
                .subscribe().with(this::answered, this::failed);
    }

    private Uni<RedisConnection> connection() {
        synchronized (this) {
            if (connection != null) {
                return Uni.createFrom().item(connection);
            }
        }
        String at;
        synchronized (this) {
            at = node != null ? node : connections.seed(seed);
        }
        return connections.connect(at, timeLimit).flatMap(c -> c.send(Request.cmd(Command.CLIENT).arg("ID"))
                .ifNoItem().after(timeLimit).fail()
                .onFailure().invoke(() -> BlockingReads.close(c)) // not ours yet: nothing else would close it
                .map(id -> {
                    synchronized (this) {
                        connection = c;
                        clientId = id.toLong();
                        connectedTo = at;
                    }
                    c.exceptionHandler(e -> dropped(c)).endHandler(() -> dropped(c));
                    return c;
                }));
    }

    private synchronized void dropped(RedisConnection c) {
        if (connection == c) {
            connection = null;
            clientId = -1;
        }
    }

    private void answered(Response reply) {
        Map<String, List<StreamAccess.Entry>> read = StreamAccess.readReply(reply);
        List<Map.Entry<Member, List<StreamAccess.Entry>>> answers = new ArrayList<>();
        boolean back;
        synchronized (this) {
            reading = false;
            back = failing;
            failing = false;
            failure = null;
            read.forEach((stream, entries) -> {
                Member m = leaving.containsKey(stream) ? leaving.remove(stream) : members.remove(stream);
                if (m != null) {
                    answers.add(Map.entry(m, entries));
                }
            });
            leaving.values().forEach(m -> answers.add(Map.entry(m, List.of())));
            leaving.clear();
        }
        if (back) {
            LOG.infof("waiting for new entries of group %s works again", group);
        }
        answers.forEach(a -> a.getKey().answer().accept(a.getValue()));
        loop();
    }

    private void failed(Throwable error) {
        String message = String.valueOf(error.getMessage());
        boolean moved = message.startsWith("MOVED ");
        // A stream or its group is gone (deleted, or Redis came back without its data): waiting
        // again would fail for every member until the group is back, so each goes back to its own
        // queue, whose read finds which one and creates its group again (NewEntries).
        boolean groupGone = message.startsWith("NOGROUP");
        List<Member> left;
        List<String> waiting;
        boolean log;
        synchronized (this) {
            if (!moved) {
                failure = error;
            }
            waiting = List.copyOf(members.keySet());
            reading = false;
            dropConnection();
            if (moved) {
                node = message.substring(message.lastIndexOf(' ') + 1);
            } else {
                // The node may be gone for good: on Redis Cluster a killed primary's replica takes
                // its slots over, and retrying the dead address left the slot's queues unread after
                // the promotion. So forget it and ask the next configured node, which answers for
                // the slot or names its owner with MOVED. When the node was fine this costs one
                // MOVED more; on a single Redis or Sentinel node is null anyway and seed() too.
                node = null;
                seed++;
            }
            left = new ArrayList<>(leaving.values());
            leaving.clear();
            if (groupGone) {
                left.addAll(members.values());
                members.clear();
            }
            log = !moved && !failing && !closed;
            failing |= !moved;
        }
        left.forEach(m -> m.answer().accept(List.of()));
        if (log) {
            LOG.warnf("waiting for new entries of group %s failed (%s): %s. New entries of %s are not read until it"
                    + " works, readiness is DOWN and redrive_readers_failing counts it; trying again every %s",
                    group, message, RedisProblems.hint(error), waiting, RETRY_PAUSE);
        } else if (!moved) {
            LOG.debugf("waiting for new entries of group %s still fails (%s)", group, message);
        }
        connections.later(moved ? Duration.ZERO : RETRY_PAUSE, this::loop);
    }

    private void dropConnection() {
        if (connection != null) {
            BlockingReads.close(connection);
            connection = null;
            clientId = -1;
        }
    }
}
