package dev.redrive.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking RESP2 client on the JDK alone, for code outside Quarkus that needs a handful
 * of commands against its own redis-server: the process-level tests (it/) and the soak
 * (bench/java/dev/redrive/bench/Soak*, which reconnects with a new one after a Redis restart).
 * Bulk replies are byte[], an error reply is returned as an IllegalStateException
 * ({@link #checked} throws it), a broken connection throws IllegalStateException.
 */
public class RedisCli implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    public RedisCli(int port) throws IOException {
        this("127.0.0.1", port, 0);
    }

    /** A Redis elsewhere (another network namespace), each connect and read bounded by {@code timeoutMillis} (0: none). */
    public RedisCli(String host, int port, int timeoutMillis) throws IOException {
        socket = new Socket();
        socket.connect(new java.net.InetSocketAddress(host, port), timeoutMillis);
        socket.setSoTimeout(timeoutMillis);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    public synchronized Object call(Object... args) {
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            buf.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (Object a : args) {
                byte[] b = a instanceof byte[] bytes ? bytes : a.toString().getBytes(StandardCharsets.UTF_8);
                buf.write(("$" + b.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                buf.write(b);
                buf.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write(buf.toByteArray());
            out.flush();
            return read();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@link #call}, with an error reply thrown rather than returned. */
    public Object checked(Object... args) {
        Object reply = call(args);
        if (reply instanceof RuntimeException e) {
            throw e;
        }
        return reply;
    }

    public String xadd(String stream, String... fieldsAndValues) {
        Object[] args = new Object[3 + fieldsAndValues.length];
        args[0] = "XADD";
        args[1] = stream;
        args[2] = "*";
        System.arraycopy(fieldsAndValues, 0, args, 3, fieldsAndValues.length);
        return text(call(args));
    }

    public long xlen(String stream) {
        return (Long) call("XLEN", stream);
    }

    public long pending(String stream, String group) {
        Object reply = call("XPENDING", stream, group);
        if (reply instanceof RuntimeException) {
            return -1;
        }
        return (Long) ((List<?>) reply).get(0);
    }

    public static String text(Object reply) {
        if (reply instanceof RuntimeException e) {
            throw e;
        }
        return reply == null ? null : new String((byte[]) reply, StandardCharsets.UTF_8);
    }

    private Object read() throws IOException {
        int type = in.read();
        String line = line();
        switch (type) {
            case '+':
                return line.getBytes(StandardCharsets.UTF_8);
            case '-':
                return new IllegalStateException(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return null;
                }
                byte[] b = in.readNBytes(len);
                in.readNBytes(2);
                return b;
            }
            case '*': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP type " + (char) type);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            b.write(c);
        }
        in.read();
        return b.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
