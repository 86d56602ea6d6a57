package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/** DLQ_NAME: two queues share one dead-letter stream on a single Redis; each record says where to go back. */
@QuarkusTest
@TestProfile(ApiProfile.class)
class SharedDeadLetterStreamTest {

    @Inject
    @Own("invoices")
    TestQueue invoices;

    @Inject
    @Own("mails")
    TestQueue mails;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @Test
    void bothQueuesParkIntoTheSharedStreamAndReplayGoesBackToEachOrigin() {
        Streams streams = mails.streams();
        String invoice = invoices.add(Map.of("kind", "terminal"));
        String mail = mails.add(Map.of("kind", "terminal"));
        StreamMessage<String, String, byte[]> parkedMail = Await.value("the mail to be parked",
                () -> streams.parked("dead-letters", "mails", mail).orElse(null));
        Await.value("the invoice to be parked", () -> streams.parked("dead-letters", "invoices", invoice).orElse(null));
        assertEquals("mails", Streams.text(parkedMail.payload().get("origin-stream")));
        assertEquals(2, streams.all("dead-letters").size());

        String replayed = as("operator").contentType("application/json").body("{\"fields\":{\"kind\":\"ok\"}}")
                .post("/dlq/dead-letters/entries/" + parkedMail.id() + "/replay")
                .then().statusCode(201).extract().path("id");
        Await.until("the replayed mail to complete", () -> handler.completions(mails.jobId(replayed)) == 1);
        assertEquals(1, streams.all("dead-letters").size(), "the invoice stays parked");
    }
}
