package dev.redrive.bench;

/**
 * redrive's benchmark (issue 6). bench/run.sh starts the private redis-server and runs this class
 * (compiled by mvn into target/bench-classes) with the packaged service's own classes and libraries
 * on the class path (the Vert.x Redis client redrive uses; its record writer, keys and scripts for
 * seeding dead letters). Every measurement starts the packaged service (quarkus-run.jar) with a
 * bench handler, warms it up, then opens a gate ({@link Gate}) and watches the consumer group from
 * outside; it prints one line "RESULT {json}" per measurement. Each measurement is a class of its
 * own, handed the run's {@link Harness}.
 */
public final class Bench {

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        try (Harness h = Harness.open(args)) {
            if (h.only.contains("success") || h.only.contains("growth") || h.only.contains("replay")) {
                new SuccessPath(h).run(h.intArg("old", 1_000_000), h.intArg("waiting-retry", 10_000));
            }
            if (h.only.contains("failure")) {
                new FailurePath(h).run();
            }
            if (h.only.contains("latency")) {
                new Latency(h).run(h.intArg("latency-rate", 5000), h.intArg("latency-seconds", 30));
            }
            if (h.only.contains("http")) {
                new HttpPath(h).run(h.only.contains("httpceiling"));
            }
            if (h.only.contains("traced")) {
                Traced.run(h);
            }
            if (h.only.contains("console")) {
                new ConsolePages(h).run(h.intArg("console-entries", 100_000));
            }
            Scale.run(h);
            Production.run(h);
        }
    }
}
