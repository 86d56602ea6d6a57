package dev.redrive.api;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * JSON that could mean two things is refused, not guessed at: a body with something after its
 * value ({"dryRun":true}]] or two objects) and an object naming a field twice are parse errors, so
 * the API answers 400 instead of acting on the first value or the last duplicate. Unknown
 * properties fail too (quarkus.jackson.fail-on-unknown-properties in application.properties).
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }
}
