package dev.redrive.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;

/** The SDK's own batch span processor is built only for a real exporter (issue 27; SpanExportIT counts the threads). */
class ExportNowhereTest {

    @Test
    void withNoExporterBeanTheSdkIsToldToBuildNoProcessorForCdi() {
        assertEquals(Map.of("otel.traces.exporter", "none"), ExportNowhere.overrides(config("cdi"), false));
    }

    @Test
    void anExporterBeanOrAnotherExporterIsLeftAsConfigured() {
        assertEquals(Map.of(), ExportNowhere.overrides(config("cdi"), true), "the test boot's in-memory exporter");
        assertEquals(Map.of(), ExportNowhere.overrides(config("cdi,logging"), false));
    }

    private static DefaultConfigProperties config(String exporter) {
        return DefaultConfigProperties.createFromMap(Map.of("otel.traces.exporter", exporter));
    }
}
