package dev.redrive.job;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How stream field values appear in JSON: text when they are valid UTF-8, else
 * {@code {"base64": "..."}} so no byte is lost or altered on the way.
 */
public final class FieldValues {

    public static final String BASE64 = "base64";

    private FieldValues() {
    }

    public static Object toJson(byte[] value) {
        String text = utf8(value);
        return text != null ? text : Map.of(BASE64, Base64.getEncoder().encodeToString(value));
    }

    public static Map<String, Object> toJson(Map<String, byte[]> fields) {
        Map<String, Object> json = new LinkedHashMap<>();
        fields.forEach((name, value) -> json.put(name, toJson(value)));
        return json;
    }

    /** The value as a string when it is valid UTF-8, else null. */
    public static String utf8(byte[] value) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
