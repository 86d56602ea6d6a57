package dev.redrive.it;

import java.io.IOException;

/** testing/RedisCli under the name the process-level tests of this package use. */
final class RedisCli extends dev.redrive.testing.RedisCli {

    RedisCli(int port) throws IOException {
        super(port);
    }

    RedisCli(String host, int port, int timeoutMillis) throws IOException {
        super(host, port, timeoutMillis);
    }
}
