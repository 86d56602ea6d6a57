package dev.redrive.it;

/** testing/OtlpBodies under the name the process-level tests of this package use. */
final class OtlpBodies extends dev.redrive.testing.OtlpBodies {

    private OtlpBodies() {
    }
}
