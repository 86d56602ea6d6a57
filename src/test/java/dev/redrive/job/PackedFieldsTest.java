package dev.redrive.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The packed form lib/fields.lua writes: "<bytes>:<item>" for each name and value. */
class PackedFieldsTest {

    @Test
    void decodesNamesAndValuesInOrderWhateverTheirBytes() {
        byte[] packed = bytes("4:kind8:terminal0:3:a:b3:a:b5:12:34");
        Map<String, byte[]> fields = PackedFields.decode(packed);
        assertEquals(List.of("kind", "", "a:b"), List.copyOf(fields.keySet()));
        assertArrayEquals(bytes("terminal"), fields.get("kind"));
        assertArrayEquals(bytes("a:b"), fields.get(""));
        assertArrayEquals(bytes("12:34"), fields.get("a:b"));
    }

    @Test
    void somethingThatIsNotAWholePackedValueIsNotDecoded() {
        assertNull(PackedFields.decode(bytes("4:kind")), "a name without a value");
        assertNull(PackedFields.decode(bytes("4:kind9:terminal")), "a length past the end");
        assertNull(PackedFields.decode(bytes("x:kind")), "no length");
        assertNull(PackedFields.decode(bytes("99999999999999999999:a")), "a length too big to be true");
    }

    @Test
    void aReplayedEntryIsExpandedWithTheFieldsRedriveAddedBesideIt() {
        Map<String, byte[]> entry = new LinkedHashMap<>();
        entry.put(ReservedField.PACKED.wireName(), bytes("4:kind2:ok"));
        entry.put("replay-of", bytes("{q}:dlq/1-0"));
        Map<String, byte[]> fields = PackedFields.expand(entry);
        assertEquals(List.of("kind", "replay-of"), List.copyOf(fields.keySet()));

        Map<String, byte[]> forged = Map.of(ReservedField.PACKED.wireName(), bytes("not packed"));
        assertSame(forged, PackedFields.expand(forged), "a value that does not unpack is left as the producer wrote it");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
