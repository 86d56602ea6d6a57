package dev.redrive.api;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestMulti;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterReader.Slice;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.RecordField;
import dev.redrive.job.LogText;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerResponse;

/**
 * Sends one value of a parked job's snapshot whole, however large: a slice of
 * {@code redrive.reads.entry-bytes} at a time, the next read from Redis only once the client has
 * taken the last (the REST layer asks for one item at a time). A read permit is held until the
 * value is sent, fails, or the client goes away.
 */
@ApplicationScoped
class RawValues {

    private static final Logger LOG = Logger.getLogger(RawValues.class);

    @Inject
    DeadLetterReader store;

    @Inject
    ReadPermits permits;

    @Inject
    RedriveConfig config;

    /**
     * @param response the download's: reset when its client stalls (see {@link #cutOff})
     * @param beforeSending what must be done once the value is found and before its first byte is
     *        sent (a masked field's reveal is audited); a failure of it fails the download
     */
    Multi<byte[]> stream(String dlq, String id, String name, HttpServerResponse response,
            Supplier<Uni<Void>> beforeSending) {
        String field = RecordField.snapshotField(name);
        int slice = config.reads().entryBytes();
        // The permit is taken on subscription, so a response that is never sent can't keep one.
        Uni<Started> head = Uni.createFrom().deferred(() -> {
            ReadPermits.Permit permit = permits.take();
            return slice(dlq, id, field, 0, slice)
                    .call(first -> beforeSending.get())
                    .onFailure().invoke(permit::release)
                    .onCancellation().invoke(permit::release)
                    .map(first -> new Started(permit, first));
        });
        // Sent chunked, without Content-Length: a download cut short (the entry replayed meanwhile,
        // Redis gone) then ends without the closing chunk, which every HTTP client reports as an error.
        // The stall limit runs from each slice to the next whatever the client's demand: a slice
        // the client does not take is never followed, so the limit fires.
        return RestMulti.fromUniResponse(head,
                started -> rest(dlq, id, field, started.first(), slice)
                        .ifNoItem().after(config.reads().stallTimeout())
                        .recoverWithMulti(() -> cutOff(dlq, id, name, response, started.permit()))
                        .onTermination().invoke(started.permit()::release));
    }

    /**
     * Ends a download whose client stopped taking it: the permit goes back now and the response
     * is reset (over HTTP/1.1 its connection is closed, over HTTP/2 only its stream, not the
     * client's other requests), so it ends without its closing chunk: the client sees a cut
     * download, never a whole-looking short one. Resetting it ourselves, rather than failing the
     * stream, also keeps the REST layer from logging each stalled client as a server error.
     */
    private Multi<byte[]> cutOff(String dlq, String id, String name, HttpServerResponse response,
            ReadPermits.Permit permit) {
        LOG.warnf("download of field %s of %s/%s cut off: its client took nothing for %s (redrive.reads.stall-timeout)",
                LogText.of(name), LogText.of(dlq), id, config.reads().stallTimeout());
        permit.release();
        response.reset();
        return Multi.createFrom().nothing();
    }

    private record Started(ReadPermits.Permit permit, Slice first) {
    }

    private Multi<byte[]> rest(String dlq, String id, String field, Slice first, int slice) {
        Multi<byte[]> head = Multi.createFrom().item(first.bytes());
        if (first.bytes().length >= first.size()) {
            return head;
        }
        AtomicLong sent = new AtomicLong(first.bytes().length);
        Multi<byte[]> tail = Multi.createBy().repeating()
                .uni(() -> slice(dlq, id, field, sent.get(), slice).map(Slice::bytes).invoke(b -> sent.addAndGet(b.length)))
                .whilst(b -> b.length > 0 && sent.get() < first.size());
        return Multi.createBy().concatenating().streams(head, tail);
    }

    private Uni<Slice> slice(String dlq, String id, String field, long from, int max) {
        // A download returns a Multi, which the API's Redis time limit does not wrap: each slice has its own.
        return store.slice(dlq, id, field, from, max).ifNoItem().after(config.redisTimeout()).fail()
                .map(found -> found.orElseThrow(() -> new ProblemException(404,
                "no-such-field", "No such field", "entry " + id + " of " + dlq + " has no snapshot field '"
                        + RecordField.snapshotName(field) + "'")));
    }
}
