package dev.redrive.redis;

import java.nio.charset.StandardCharsets;

/** The Redis Cluster hash slot of a key: CRC16 (XMODEM) of its hash tag, or of the whole key, mod 16384. */
public final class HashSlot {

    private HashSlot() {
    }

    public static int of(String key) {
        byte[] bytes = hashedPart(key).getBytes(StandardCharsets.UTF_8);
        int crc = 0;
        for (byte b : bytes) {
            crc ^= (b & 0xff) << 8;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
        }
        return (crc & 0xffff) % 16384;
    }

    /** True when the key carries a hash tag that Redis Cluster honours: a non-empty {...}. */
    public static boolean hasTag(String key) {
        int open = key.indexOf('{');
        if (open < 0) {
            return false;
        }
        int close = key.indexOf('}', open + 1);
        return close > open + 1;
    }

    /** The part of the key Cluster hashes: its hash tag's content, or the whole key. */
    public static String hashedPart(String key) {
        if (!hasTag(key)) {
            return key;
        }
        int open = key.indexOf('{');
        return key.substring(open + 1, key.indexOf('}', open + 1));
    }
}
