package dev.redrive.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.RedisResource;
import dev.redrive.testing.ScriptedHandler;
import dev.redrive.testing.Streams;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/** DLQ_NAME: two queues share one dead-letter stream on a single Redis; each record says where to go back. */
@QuarkusTest
@WithTestResource(RedisResource.class)
@TestProfile(ApiProfile.class)
class SharedDeadLetterStreamTest {

    static final Duration BOUND = Duration.ofSeconds(20);

    @Inject
    RedisDataSource redis;

    @Inject
    @Identifier("scripted")
    ScriptedHandler handler;

    @Test
    void bothQueuesParkIntoTheSharedStreamAndReplayGoesBackToEachOrigin() {
        Streams streams = new Streams(redis);
        streams.awaitGroup("invoices", "redrive");
        streams.awaitGroup("mails", "redrive");
        String invoice = streams.add("invoices", Map.of("kind", "terminal"));
        String mail = streams.add("mails", Map.of("kind", "terminal"));
        StreamMessage<String, String, byte[]> parkedMail = Await.value("the mail to be parked", BOUND,
                () -> streams.parked("dead-letters", "mails", mail).orElse(null));
        Await.value("the invoice to be parked", BOUND, () -> streams.parked("dead-letters", "invoices", invoice).orElse(null));
        assertEquals("mails", Streams.text(parkedMail.payload().get("origin-stream")));
        assertEquals(2, streams.all("dead-letters").size());

        String replayed = given().auth().preemptive().basic("operator", ApiUsers.password("operator"))
                .contentType("application/json").body("{\"fields\":{\"kind\":\"ok\"}}")
                .post("/dlq/dead-letters/entries/" + parkedMail.id() + "/replay")
                .then().statusCode(201).extract().path("id");
        Await.until("the replayed mail to complete", BOUND, () -> handler.completions("mails/" + replayed) == 1);
        assertEquals(1, streams.all("dead-letters").size(), "the invoice stays parked");
    }
}
