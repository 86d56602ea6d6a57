package dev.redrive.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;

/**
 * Collects ids while one flush is in flight and sends them together in the next: acks and
 * hand-offs cost one round trip per batch, not per job, without a timer adding latency. The
 * first id of a batch is sent at the end of the current event-loop turn, so jobs that finish in
 * the same turn (a read's worth of quick jobs) go out in one command.
 */
final class Batcher<T> {

    private final Function<List<T>, Uni<?>> flush;
    private final ErrorSink<T> onError;
    private final Consumer<Runnable> later;
    private List<T> waiting = new ArrayList<>();
    private List<Runnable> callbacks = new ArrayList<>();
    private boolean flushing;

    interface ErrorSink<T> {
        void failed(List<T> items, Throwable error);
    }

    /** @param later runs a task after the current event-loop turn */
    Batcher(Function<List<T>, Uni<?>> flush, ErrorSink<T> onError, Consumer<Runnable> later) {
        this.flush = flush;
        this.onError = onError;
        this.later = later;
    }

    /** Queues an item; {@code done} runs once the batch holding it has been sent (or failed). */
    void add(T item, Runnable done) {
        synchronized (this) {
            waiting.add(item);
            callbacks.add(done);
            if (flushing) {
                return;
            }
            flushing = true;
        }
        later.accept(this::send);
    }

    private void send() {
        List<T> ids;
        List<Runnable> dones;
        synchronized (this) {
            if (waiting.isEmpty()) {
                flushing = false;
                return;
            }
            ids = waiting;
            dones = callbacks;
            waiting = new ArrayList<>();
            callbacks = new ArrayList<>();
        }
        Uni<?> sent;
        try {
            sent = flush.apply(ids);
        } catch (RuntimeException e) {
            sent = Uni.createFrom().failure(e);
        }
        sent.subscribe().with(ok -> completed(dones), error -> {
            onError.failed(ids, error);
            completed(dones);
        });
    }

    private void completed(List<Runnable> dones) {
        dones.forEach(Runnable::run);
        send();
    }
}
