package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static dev.redrive.testing.Api.problem;
import static dev.redrive.api.LargeValuesApiTest.bytes;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.FrozenProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * A raw value's download holds one of {@code redrive.reads.concurrent} read permits; a client
 * that stops reading but keeps its connection open must not keep it ({@code redrive.reads.stall-timeout}).
 */
@QuarkusTest
@TestProfile(FrozenProfile.class)
class StalledDownloadTest {

    /**
     * More than the stalled client's and the server's socket buffers hold (a few MiB here), and
     * small enough that they fill in seconds: every slice's script reads the whole entry.
     */
    static final int BIG = 8 << 20;

    @Inject
    @Own("big")
    TestQueue big;

    @Inject
    RedisDataSource redis;

    @Test
    void oneReadTooManyIsRefusedWith503AndRetryAfterUntilTheStalledReaderIsCutOff() throws Exception {
        // Written straight into the dead-letter stream: the view reads entries, however they got there.
        String id = DeadLetterSeed.from(big.stream(), "1-1").snapshot("payload", bytes(BIG, 'z')).park(big.redis(), big.dlq());
        as("viewer").get(big.dlqPath() + "/entries/" + enc(id)).then().statusCode(200);

        int port = ConfigProvider.getConfig().getValue("quarkus.http.test-port", Integer.class);
        String auth = Base64.getEncoder().encodeToString(("viewer:" + ApiUsers.password("viewer")).getBytes(StandardCharsets.UTF_8));
        try (Socket slow = new Socket()) {
            // A small receive buffer of its own (no autotuning, which may grow to tens of MiB on
            // loopback): what the server can't hand over is then held up after a few MiB.
            slow.setReceiveBufferSize(16 << 10);
            slow.connect(new InetSocketAddress("127.0.0.1", port));
            OutputStream out = slow.getOutputStream();
            out.write(("GET " + big.dlqPath() + "/entries/" + enc(id) + "/fields/payload HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Basic " + auth + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = slow.getInputStream();
            byte[] head = in.readNBytes(12);
            assertEquals("HTTP/1.1 200", new String(head, StandardCharsets.US_ASCII));
            // This client reads no further: the 8 MiB can't all be sent, so the download holds its permit.
            Response refused = as("viewer").get(big.dlqPath() + "/entries/" + enc(id));
            problem(refused.then(), 503);
            refused.then().header("Retry-After", "1").body("type", equalTo("/problems/busy"));
            problem(as("viewer").get(big.dlqPath() + "/entries").then(), 503);

            // ...until it has taken nothing for redrive.reads.stall-timeout: then it is cut off and
            // the permit comes back, though the client still holds its connection open.
            Await.until("the permit to come back from the stalled download",
                    () -> as("viewer").get(big.dlqPath() + "/entries/" + enc(id)).statusCode() == 200);
            slow.setSoTimeout((int) Await.BOUND.toMillis());
            byte[] sent = in.readAllBytes(); // what was buffered, then the end of the connection
            assertTrue(sent.length < BIG, "the stalled download was cut short, got " + sent.length + " bytes");
            String end = new String(sent, Math.max(0, sent.length - 5), Math.min(5, sent.length), StandardCharsets.US_ASCII);
            assertTrue(!end.equals("0\r\n\r\n"), "a cut download ends without the closing chunk");
        }
        as("viewer").get(big.dlqPath() + "/entries").then().statusCode(200).body("items.id", hasItem(id));
    }
}
