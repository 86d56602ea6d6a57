package dev.redrive.it;

/** What the ITs' OTLP receivers look for in an export's protobuf body: plain bytes, no decoding. */
final class OtlpBodies {

    private OtlpBodies() {
    }

    /** How often {@code needle} occurs in {@code body} (a span's name occurs once per span). */
    static int count(byte[] body, byte[] needle) {
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

    static boolean contains(byte[] body, byte[] needle) {
        return count(body, needle) > 0;
    }
}
