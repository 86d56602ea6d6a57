package dev.redrive.api;

import java.util.Map;

/** The limit on a replay's or a redrive's patch, one copy for the API's JSON bodies, the console's forms and MCP. */
public final class ReplayPatches {

    private ReplayPatches() {
    }

    /** 413 when the patched names and values hold more than {@code maxBytes} (redrive.replay.max-body-bytes). */
    public static void requireWithin(Map<String, byte[]> patch, int maxBytes) {
        long size = 0;
        for (Map.Entry<String, byte[]> field : patch.entrySet()) {
            size += field.getValue().length + field.getKey().length();
        }
        requireWithin(size, maxBytes);
    }

    /** 413 when a patch of {@code size} bytes (names and values) is above {@code maxBytes}. */
    public static void requireWithin(long size, int maxBytes) {
        if (size > maxBytes) {
            throw new ProblemException(413, "patch-too-large", "Patch too large",
                    "the patched fields hold " + size + " bytes; the limit is " + maxBytes
                            + " (redrive.replay.max-body-bytes)");
        }
    }
}
