package dev.redrive.testing;

/**
 * What an OTLP receiver outside the service looks for in an export's protobuf body: plain bytes,
 * no decoding. The ITs' receivers and the bench's span sink (bench/java, Traced) count with it.
 */
public class OtlpBodies {

    protected OtlpBodies() {
    }

    /** How often {@code needle} occurs in {@code body} (a span's name occurs once per span). */
    public static int count(byte[] body, byte[] needle) {
        int n = 0;
        outer:
        for (int i = 0; i + needle.length <= body.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (body[i + j] != needle[j]) {
                    continue outer;
                }
            }
            n++;
        }
        return n;
    }

    public static boolean contains(byte[] body, byte[] needle) {
        return count(body, needle) > 0;
    }
}
