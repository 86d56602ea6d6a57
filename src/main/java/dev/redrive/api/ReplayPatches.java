package dev.redrive.api;

import java.util.Map;

/** The limit on a replay's patch, one copy for the API's JSON body and the console's form. */
public final class ReplayPatches {

    private ReplayPatches() {
    }

    /** 413 when the patched names and values hold more than {@code maxBytes} (redrive.replay.max-body-bytes). */
    public static void requireWithin(Map<String, byte[]> patch, int maxBytes) {
        long size = 0;
        for (Map.Entry<String, byte[]> field : patch.entrySet()) {
            size += field.getValue().length + field.getKey().length();
        }
        if (size > maxBytes) {
            throw new ProblemException(413, "patch-too-large", "Patch too large",
                    "the patched fields hold " + size + " bytes; the limit is " + maxBytes
                            + " (redrive.replay.max-body-bytes)");
        }
    }
}
